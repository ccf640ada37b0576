#include "sprig/stdlib/hash/byte_words.hpp"

namespace sprig::hash {

std::vector<std::uint32_t> pack_bytes(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint32_t> words(bytes.empty() ? 1 : (bytes.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < bytes.size(); ++i) words[i / 4] |= std::uint32_t(bytes[i]) << (8 * (i % 4));
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
  std::vector<std::uint8_t> bytes(count);
  for (std::size_t i = 0; i < count; ++i) bytes[i] = std::uint8_t(words[i / 4] >> (8 * (i % 4)));
  return bytes;
}

}  // namespace sprig::hash
