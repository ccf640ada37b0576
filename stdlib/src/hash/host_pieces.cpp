#include "host_pieces.hpp"

#include <bit>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace sprig::hash::detail {

std::vector<std::uint32_t> host_words(ByteView bytes) {
  std::vector<std::uint32_t> words(bytes.empty() ? 1 : (bytes.size() + 3) / 4, 0);
  if constexpr (std::endian::native == std::endian::little) {
    if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  } else {
    for (std::size_t i = 0; i < bytes.size(); ++i) words[i / 4] |= std::uint32_t(bytes.data()[i]) << (8 * (i % 4));
  }
  return words;
}

void host_bytes(std::span<const std::uint32_t> words, std::uint8_t* out, std::size_t count) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, words.data(), count);
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] = std::uint8_t(words[i / 4] >> (8 * (i % 4)));
  }
}

PackedViews pack_views(std::span<const ByteView> messages) {
  std::size_t total = 0;
  for (const ByteView& m : messages) total += m.size();
  std::vector<std::uint8_t> bytes(total);
  PackedViews packed;
  std::size_t at = 0;
  for (const ByteView& m : messages) {
    packed.spans.push_back({std::uint32_t(at), std::uint32_t(m.size())});
    if (!m.empty()) std::memcpy(bytes.data() + at, m.data(), m.size());
    at += m.size();
  }
  packed.words = host_words(bytes);
  return packed;
}

std::uint64_t launch_invocations(const DeviceInfo& info, std::uint32_t workgroup) {
  return std::uint64_t(info.max_workgroup_count[0]) * workgroup;
}

std::uint64_t piece_bytes(const DeviceInfo& info) {
  return std::min<std::uint64_t>(info.max_buffer_bytes, (std::uint64_t(1) << 32) - 1024);
}

std::uint64_t loop_budget(const DeviceInfo& info) {
  return info.quirks.has(Quirk::LoopBackEdgeCap) ? 60000 : std::numeric_limits<std::uint64_t>::max();
}

void check_piece_fits(const char* what, const DeviceInfo& info, std::uint64_t bytes) {
  if (bytes > piece_bytes(info))
    throw std::invalid_argument(std::string(what) + ": a message of " + std::to_string(bytes) +
                                " bytes does not fit one buffer of " + info.name + " (at most " +
                                std::to_string(piece_bytes(info)) + " bytes)");
}

std::size_t equal_length_count(const char* what, std::size_t total, std::size_t message_bytes) {
  if (message_bytes == 0) throw std::invalid_argument(std::string(what) + ": the message length must be positive");
  if (total % message_bytes != 0)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(total) + " bytes are not whole messages of " +
                                std::to_string(message_bytes) + " bytes");
  return total / message_bytes;
}

}  // namespace sprig::hash::detail
