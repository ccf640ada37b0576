// Constants and argument checks of the proof of space (Chia's construction as Subspace and
// Abundance use it; docs/pos-spec.md §0), shared by every file of the CPU reference.
// The reference is plain C++, independent of the DSL: it is the oracle the kernels are tested against.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pos_ref {

using Seed = std::array<std::uint8_t, 32>;

inline constexpr int min_k = 15;
inline constexpr int max_k = 28;  // y (K + 6 bits) in a u64; positions b·288 + i still fit a u32
inline constexpr int param_ext = 6;  // y has K + 6 bits
inline constexpr std::uint32_t param_m = 64;
inline constexpr std::uint32_t param_b = 119;
inline constexpr std::uint32_t param_c = 127;
inline constexpr std::uint32_t param_bc = param_b * param_c;  // 15113

inline constexpr std::uint32_t num_s_buckets = 1u << 16;
inline constexpr std::uint32_t num_chunks = 1u << 15;  // chunks of a record, and proofs kept
inline constexpr std::size_t chunk_bytes = 32;

// Which selection rules build the tables (pos-spec §1.5 and §1.8). F1, compute_fn, the match
// rule and verification are the same in both; they differ in which entries and matches exist.
enum class Mode {
  Abundance,  // 272 entries per bucket in position order, 288 matches per pair, <= 2 right duplicates
  Subspace,   // 512 / 512, all duplicates, buckets in (y, position) order
};

struct ModeLimits {
  std::uint32_t bucket_size;   // entries kept per bucket
  std::uint32_t matches_size;  // matches kept per bucket pair
  std::uint32_t duplicates;    // right entries with the same r used per target (0 = all)
};

inline constexpr ModeLimits limits(Mode mode) {
  return mode == Mode::Abundance ? ModeLimits{272, 288, 2} : ModeLimits{512, 512, 0};
}

inline const char* mode_name(Mode mode) { return mode == Mode::Abundance ? "Abundance" : "Subspace"; }

// Throws unless k is one of the supported sizes; every entry point that takes K calls it.
inline void check_k(int k) {
  if (k < min_k || k > max_k)
    throw std::invalid_argument("proof of space: K = " + std::to_string(k) + " is out of range (supported: " +
                                std::to_string(min_k) + ".." + std::to_string(max_k) + ")");
}

inline void check_table(int table) {
  if (table < 2 || table > 7)
    throw std::invalid_argument("proof of space: table " + std::to_string(table) + " has no compute_fn (tables 2..7)");
}

inline constexpr int y_bits(int k) { return k + param_ext; }

// Buckets of y: ceil(2^(K+6) / 15113), 1,136,762 at K = 28 (well within a u32); there are
// one fewer bucket pairs.
inline constexpr std::uint32_t num_buckets(int k) { return std::uint32_t(((1ull << y_bits(k)) + param_bc - 1) / param_bc); }
inline constexpr std::uint32_t num_pairs(int k) { return num_buckets(k) - 1; }

// Metadata bits of table t's entries: K times Chia's kVectorLens {1, 2, 4, 4, 3, 2, 0}.
inline constexpr int metadata_bits(int k, int table) {
  constexpr std::array<int, 8> mult{0, 1, 2, 4, 4, 3, 2, 0};
  return k * mult[table];
}

// Proof: 64 x values of K bits each, MSB-first (160 bytes at K = 20).
inline constexpr std::size_t proof_bytes(int k) { return std::size_t(8 * k); }

}  // namespace pos_ref
