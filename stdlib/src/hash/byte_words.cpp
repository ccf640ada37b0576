#include "sprig/stdlib/hash/byte_words.hpp"

#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sprig::hash {

// On a little-endian host the words' bytes are the bytes in order: a copy, not a loop over
// bytes (a record's proofs are 5 MiB at K = 20, read back for every record).
std::vector<std::uint32_t> pack_bytes(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint32_t> words(bytes.empty() ? 1 : (bytes.size() + 3) / 4, 0);
  if constexpr (std::endian::native == std::endian::little) {
    if (!bytes.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
  } else {
    for (std::size_t i = 0; i < bytes.size(); ++i) words[i / 4] |= std::uint32_t(bytes[i]) << (8 * (i % 4));
  }
  return words;
}

std::vector<std::uint32_t> pack_bytes(std::string_view text) {
  return pack_bytes(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

std::vector<ByteSpan> back_to_back_spans(std::size_t count, std::uint32_t length) {
  std::vector<ByteSpan> spans(count);
  for (std::size_t i = 0; i < count; ++i) spans[i] = {std::uint32_t(i * length), length};
  return spans;
}

std::vector<std::uint8_t> unpack_bytes(std::span<const std::uint32_t> words, std::size_t count) {
  if (count > words.size() * 4)
    throw std::out_of_range("unpack_bytes: " + std::to_string(count) + " bytes asked of " +
                            std::to_string(words.size()) + " words");
  std::vector<std::uint8_t> bytes(count);
  if constexpr (std::endian::native == std::endian::little) {
    if (count > 0) std::memcpy(bytes.data(), words.data(), count);
  } else {
    for (std::size_t i = 0; i < count; ++i) bytes[i] = std::uint8_t(words[i / 4] >> (8 * (i % 4)));
  }
  return bytes;
}

}  // namespace sprig::hash
