#include "sprig/stdlib/hash/u64_words.hpp"

namespace sprig::hash {

std::vector<std::uint32_t> pack_u64(std::span<const std::uint64_t> values) {
  std::vector<std::uint32_t> words(values.empty() ? 2 : 2 * values.size(), 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    words[2 * i] = std::uint32_t(values[i]);
    words[2 * i + 1] = std::uint32_t(values[i] >> 32);
  }
  return words;
}

std::vector<std::uint64_t> unpack_u64(std::span<const std::uint32_t> words) {
  if (words.size() % 2 != 0)
    throw std::invalid_argument("unpack_u64: " + std::to_string(words.size()) + " words, not whole (low, high) pairs");
  std::vector<std::uint64_t> values(words.size() / 2);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = std::uint64_t(words[2 * i]) | (std::uint64_t(words[2 * i + 1]) << 32);
  return values;
}

}  // namespace sprig::hash
