// The BLAKE3 compression function (BLAKE3 specification, section 2.2) as a device function,
// unrolled at trace time, and the single-block hash of inputs of at most 64 bytes built on
// it (one compression: what proof-of-space plotting calls per entry).
//
// BLAKE3 is little-endian, so message words are the buffer words of byte_words.hpp as they
// are, and so are chaining values, keys and outputs.
#pragma once

#include <array>
#include <cstdint>

#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/hash_adds.hpp"
#include "sprig/stdlib/hash/sha256_compress.hpp"
#include "sprig/stdlib/hash/word_vars.hpp"

namespace sprig::hash {

using Blake3Words = std::array<UInt, 8>;    // a chaining value or key
using Blake3Block = std::array<UInt, 16>;   // a 64-byte message block
using Blake3Output = std::array<UInt, 16>;  // 64 output bytes

// Domain flags (specification, table 3).
namespace blake3_flags {
inline constexpr std::uint32_t chunk_start = 1u << 0;
inline constexpr std::uint32_t chunk_end = 1u << 1;
inline constexpr std::uint32_t parent = 1u << 2;
inline constexpr std::uint32_t root = 1u << 3;
inline constexpr std::uint32_t keyed_hash = 1u << 4;
inline constexpr std::uint32_t derive_key_context = 1u << 5;
inline constexpr std::uint32_t derive_key_material = 1u << 6;
}  // namespace blake3_flags

inline constexpr std::uint32_t blake3_block_bytes = 64;
inline constexpr std::uint32_t blake3_chunk_bytes = 1024;

// BLAKE3's IV is SHA-256's initial state.
inline Blake3Words blake3_iv() { return sha256_initial_state(); }

namespace detail {

// The message word permutation applied between rounds (specification, table 2).
inline constexpr std::array<int, 16> blake3_permutation{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

}  // namespace detail

// BLAKE3's quarter-round G (specification, section 2.2) on words a, b, c, d of the state
// `s`, in place, mixing in message words mx and my. The sums into a go through `add`
// (hash_adds.hpp); those into c stay plain, as multiply-adds they measured slower on
// NVIDIA's driver. Every function below that takes an `add` passes it down to here.
inline void blake3_g(std::array<UInt, 16>& s, int a, int b, int c, int d, const UInt& mx,
                     const UInt& my, const HashAdder& add = {}) {
  s[a] = add(add(s[a], s[b]), mx);
  s[d] = rotate_right(s[d] ^ s[a], 16u);
  s[c] = s[c] + s[d];
  s[b] = rotate_right(s[b] ^ s[c], 12u);
  s[a] = add(add(s[a], s[b]), my);
  s[d] = rotate_right(s[d] ^ s[a], 8u);
  s[c] = s[c] + s[d];
  s[b] = rotate_right(s[b] ^ s[c], 7u);
}

// The 16 output words of compressing `block` under chaining value `cv` at 64-bit counter
// (counter_low, counter_high) with `block_len` bytes and `flags`. The first 8 words are the
// next chaining value; all 16 are root output (extended output bytes).
inline Blake3Output blake3_compress(const Blake3Words& cv, const Blake3Block& block,
                                    const UInt& counter_low, const UInt& counter_high,
                                    const UInt& block_len, const UInt& flags, const HashAdder& add = {}) {
  Blake3Words iv = blake3_iv();
  std::array<UInt, 16> s{cv[0], cv[1], cv[2], cv[3], cv[4],       cv[5],        cv[6],     cv[7],
                                        iv[0], iv[1], iv[2], iv[3], counter_low, counter_high, block_len, flags};
  Blake3Block m = block;
  for (int round = 0; round < 7; ++round) {
    blake3_g(s, 0, 4, 8, 12, m[0], m[1], add);  // columns
    blake3_g(s, 1, 5, 9, 13, m[2], m[3], add);
    blake3_g(s, 2, 6, 10, 14, m[4], m[5], add);
    blake3_g(s, 3, 7, 11, 15, m[6], m[7], add);
    blake3_g(s, 0, 5, 10, 15, m[8], m[9], add);  // diagonals
    blake3_g(s, 1, 6, 11, 12, m[10], m[11], add);
    blake3_g(s, 2, 7, 8, 13, m[12], m[13], add);
    blake3_g(s, 3, 4, 9, 14, m[14], m[15], add);
    if (round < 6) {
      Blake3Block permuted = m;
      for (int i = 0; i < 16; ++i) permuted[i] = m[detail::blake3_permutation[i]];
      m = permuted;
    }
  }
  Blake3Output out = s;
  for (int i = 0; i < 8; ++i) {
    out[i] = s[i] ^ s[i + 8];
    out[i + 8] = s[i + 8] ^ cv[i];
  }
  return out;
}

// The first 8 output words: a chaining value.
inline Blake3Words blake3_chaining_value(const Blake3Output& out) {
  return {out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]};
}

// The 32-byte BLAKE3 hash (as 8 little-endian words) of an input of `length` <= 64 bytes
// held in `block` (bytes past `length` are ignored). `key` and `flags` select the mode:
// the IV and 0 for hash, the key and keyed_hash for a keyed hash, the context key and
// derive_key_material for key derivation.
inline Blake3Words blake3_hash_block(const Blake3Block& block, const UInt& length,
                                     const Blake3Words& key = blake3_iv(), std::uint32_t flags = 0) {
  Blake3Block m = block;
  for (std::uint32_t j = 0; j < 16; ++j)
    m[j] = keep_low_bytes(block[j], bytes_before(length, UInt(j * 4u)));
  using namespace blake3_flags;
  UInt all_flags(flags | chunk_start | chunk_end | root);
  return blake3_chaining_value(blake3_compress(key, m, 0u, 0u, length, all_flags));
}

}  // namespace sprig::hash
