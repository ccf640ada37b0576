// What the host-level hash calls (host_api.hpp) share: host bytes into the kernels' words,
// messages packed back to back, and batches cut into pieces that fit one launch and one
// buffer of the device, so that a call takes any number of messages.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/byte_view.hpp"
#include "sprig/stdlib/hash/byte_words.hpp"

namespace sprig::hash::detail {

// Bytes in little-endian words (byte_words.hpp), never empty. On a little-endian host the
// words are the bytes themselves, so one copy packs them.
inline std::vector<std::uint32_t> host_words(ByteView bytes) {
  std::vector<std::uint32_t> words(bytes.empty() ? 1 : (bytes.size() + 3) / 4, 0);
  if constexpr (std::endian::native == std::endian::little) {
    if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  } else {
    for (std::size_t i = 0; i < bytes.size(); ++i) words[i / 4] |= std::uint32_t(bytes.data()[i]) << (8 * (i % 4));
  }
  return words;
}

// The first `count` bytes held by little-endian words, to `out`.
inline void host_bytes(std::span<const std::uint32_t> words, std::uint8_t* out, std::size_t count) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, words.data(), count);
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] = std::uint8_t(words[i / 4] >> (8 * (i % 4)));
  }
}

// Messages stored back to back in one word buffer, each named by its span.
struct PackedViews {
  std::vector<std::uint32_t> words;
  std::vector<ByteSpan> spans;
};

inline PackedViews pack_views(std::span<const ByteView> messages) {
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

// Invocations one launch of `workgroup`-wide workgroups reaches along x.
inline std::uint64_t launch_invocations(const DeviceInfo& info, std::uint32_t workgroup) {
  return std::uint64_t(info.max_workgroup_count[0]) * workgroup;
}

// Bytes one data buffer of a piece may hold: the device's per-binding limit, and byte offsets
// within 32 bits (with room for the kernels' reads just past a message's end).
inline std::uint64_t piece_bytes(const DeviceInfo& info) {
  return std::min<std::uint64_t>(info.max_buffer_bytes, (std::uint64_t(1) << 32) - 1024);
}

// Loop back-edges one invocation may take: lavapipe stops every loop of an invocation after
// 65,535 in all (the lavapipe-loop-cap quirk, driver_quirks.hpp); elsewhere no limit. The
// margin covers the kernels' short fixed loops.
inline std::uint64_t loop_budget(const DeviceInfo& info) {
  return info.quirks.has(Quirk::LoopBackEdgeCap) ? 60000 : std::numeric_limits<std::uint64_t>::max();
}

// Throws when one message of `bytes` bytes cannot go in a piece.
inline void check_piece_fits(const char* what, const DeviceInfo& info, std::uint64_t bytes) {
  if (bytes > piece_bytes(info))
    throw std::invalid_argument(std::string(what) + ": a message of " + std::to_string(bytes) +
                                " bytes does not fit one buffer of " + info.name + " (at most " +
                                std::to_string(piece_bytes(info)) + " bytes)");
}

// Calls body(first, count) for consecutive pieces of `messages`, each of at most `max_items`
// messages and `max_bytes` bytes in all (a message alone may take up to max_bytes).
template <class Body>
void for_each_piece(std::span<const ByteView> messages, std::uint64_t max_items, std::uint64_t max_bytes,
                    Body&& body) {
  std::size_t first = 0;
  while (first < messages.size()) {
    std::size_t count = 0;
    std::uint64_t bytes = 0;
    while (first + count < messages.size() && count < max_items &&
           (count == 0 || bytes + messages[first + count].size() <= max_bytes)) {
      bytes += messages[first + count].size();
      ++count;
    }
    body(first, count);
    first += count;
  }
}

// The message count of `total` bytes of equal-length messages of `message_bytes` each.
inline std::size_t equal_length_count(const char* what, std::size_t total, std::size_t message_bytes) {
  if (message_bytes == 0)
    throw std::invalid_argument(std::string(what) + ": the message length must be positive");
  if (total % message_bytes != 0)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(total) +
                                " bytes are not whole messages of " + std::to_string(message_bytes) + " bytes");
  return total / message_bytes;
}

}  // namespace sprig::hash::detail
