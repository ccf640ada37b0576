// A plain C++ BLAKE3 for inputs of one chunk (at most 1024 bytes), unkeyed and keyed, written
// from the BLAKE3 specification (§2.2 compression, §2.3-2.5 chunk chaining and root output).
// That covers every hash proof of space needs: compute_fn inputs (<= 64 bytes, one block),
// proofs (160 bytes) and the seed / sector-id derivations of record encoding.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace pos_ref {

using Blake3Hash = std::array<std::uint8_t, 32>;
using Blake3Key = std::array<std::uint8_t, 32>;

// The 16 output words of one compression (the first 8 are the next chaining value).
std::array<std::uint32_t, 16> blake3_compress(const std::array<std::uint32_t, 8>& cv,
                                              const std::array<std::uint32_t, 16>& block, std::uint64_t counter,
                                              std::uint32_t block_len, std::uint32_t flags);

// BLAKE3(input), 32 bytes; throws std::invalid_argument for inputs longer than 1024 bytes.
Blake3Hash blake3(std::span<const std::uint8_t> input);

// BLAKE3 keyed_hash mode, same length limit.
Blake3Hash blake3_keyed(const Blake3Key& key, std::span<const std::uint8_t> input);

}  // namespace pos_ref
