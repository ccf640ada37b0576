// 64-bit values in uint32 buffers, the convention of the Goldilocks and Rescue kernels (and
// of 64-bit values in general): value i is words 2i (low half) and 2i + 1 (high half), so
// on little-endian hosts the words are the values' own bytes.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace sprig::hash {

// Two words per value. Never empty (a zero-length buffer cannot be bound): no values give
// one zero value's two words.
inline std::vector<std::uint32_t> pack_u64(std::span<const std::uint64_t> values) {
  std::vector<std::uint32_t> words(values.empty() ? 2 : 2 * values.size(), 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    words[2 * i] = std::uint32_t(values[i]);
    words[2 * i + 1] = std::uint32_t(values[i] >> 32);
  }
  return words;
}

// The values held by word pairs; an odd word count is an error.
inline std::vector<std::uint64_t> unpack_u64(std::span<const std::uint32_t> words) {
  if (words.size() % 2 != 0)
    throw std::invalid_argument("unpack_u64: " + std::to_string(words.size()) +
                                " words, not whole (low, high) pairs");
  std::vector<std::uint64_t> values(words.size() / 2);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = std::uint64_t(words[2 * i]) | (std::uint64_t(words[2 * i + 1]) << 32);
  return values;
}

}  // namespace sprig::hash
