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
std::vector<std::uint32_t> pack_u64(std::span<const std::uint64_t> values);

// The values held by word pairs; an odd word count is an error.
std::vector<std::uint64_t> unpack_u64(std::span<const std::uint32_t> words);

}  // namespace sprig::hash
