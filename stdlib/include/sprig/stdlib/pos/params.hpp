// Constants of the proof of space (Chia's construction as Subspace and Abundance use it;
// the algorithm bit by bit is in docs/pos.md), shared by the plotting kernels and host code.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace sprig::pos {

using Seed = std::array<std::uint8_t, 32>;

inline constexpr int min_k = 15;
// y has K + 6 bits: a word up to K = 26, two at K = 27 and 28 (y_value.hpp); at K = 28
// tables 3 and 4's metadata (112 bits an entry, 4.6 GB) takes two buffers
// (packed_split_pairs). Subspace stops at 25: its table-7 keys hold two dense positions of
// 26 bits.
inline constexpr int max_k = 28;
inline constexpr int max_subspace_k = 25;
inline constexpr int param_ext = 6;  // y has K + 6 bits
inline constexpr std::uint32_t param_m = 64;
inline constexpr std::uint32_t param_b = 119;
inline constexpr std::uint32_t param_c = 127;
inline constexpr std::uint32_t param_bc = param_b * param_c;  // 15113

inline constexpr std::uint32_t num_s_buckets = 1u << 16;
inline constexpr std::uint32_t proofs_per_record = 1u << 15;
inline constexpr std::uint32_t no_target = ~0u;  // an s-bucket without a table-7 match

// Which rules select the entries and matches that exist (docs/pos.md). F1, compute_fn, the
// match rule and verification are the same in both; the plots differ.
enum class Mode {
  Abundance,  // 272 entries per bucket in position order, 288 matches per pair, <= 2 right duplicates
  Subspace,   // 512 / 512, all duplicates; tables numbered in (y, left, right) order
};

const char* mode_name(Mode mode);

// Entries kept per bucket (the first in position order) and matches kept per bucket pair
// (the first in (left, m, duplicate) order); Abundance uses at most two right duplicates
// of a target, Subspace all of them.
inline constexpr std::uint32_t bucket_capacity(Mode mode) { return mode == Mode::Abundance ? 272 : 512; }
inline constexpr std::uint32_t matches_per_pair(Mode mode) { return mode == Mode::Abundance ? 288 : 512; }
inline constexpr std::uint32_t max_bucket_capacity = 512;

// Throws std::invalid_argument naming K when it is outside min_k..max_k (for Subspace's
// rules, min_k..max_subspace_k).
void check_k(int k);
void check_k(int k, Mode mode);

inline constexpr int y_bits(int k) { return k + param_ext; }
inline constexpr std::uint32_t num_buckets(int k) {
  return std::uint32_t(((std::uint64_t(1) << y_bits(k)) + param_bc - 1) / param_bc);
}
inline constexpr std::uint32_t num_pairs(int k) { return num_buckets(k) - 1; }

// Metadata bits of table t's entries: K times Chia's kVectorLens {1, 2, 4, 4, 3, 2, 0}.
inline constexpr int metadata_bits(int k, int table) {
  constexpr std::array<int, 8> mult{0, 1, 2, 4, 4, 3, 2, 0};
  return k * mult[table];
}

// Subspace's challenge for a challenge index (the farmer passes the s-bucket): the first K
// bits of y that its proof's table-7 entry has, u32_be(index.to_le_bytes()) >> (32 - K).
// Abundance's challenge is the s-bucket itself.
inline constexpr std::uint32_t subspace_challenge(int k, std::uint32_t index) {
  const std::uint32_t swapped = (index >> 24) | ((index >> 8) & 0xff00u) | ((index << 8) & 0xff0000u) | (index << 24);
  return swapped >> (32 - k);
}

// A proof is 64 x values of K bits, MSB-first: 8K bytes, 2K words.
inline constexpr std::uint32_t proof_bytes(int k) { return std::uint32_t(8 * k); }
inline constexpr std::uint32_t proof_words(int k) { return std::uint32_t(2 * k); }

}  // namespace sprig::pos
