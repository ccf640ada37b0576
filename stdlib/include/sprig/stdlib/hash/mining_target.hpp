// Proof-of-work targets as Bitcoin-style block headers encode them, shared by the mining
// searches (scrypt_search.hpp, sha256d_search.hpp): a hash wins when, read as a
// little-endian 256-bit number, it is at most the target.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/sha256_compress.hpp"

namespace sprig::hash {

// What a mining search found. The one-call forms keep the `capacity` smallest winners, so
// that a result depends only on the range, never on the device or on how devices shared it
// (mining_chunks.hpp); the recorded forms keep whichever winners reached the buffer first.
struct MiningSearchResult {
  std::vector<std::uint32_t> nonces;  // the winners, ascending (at most `capacity` of them)
  std::uint64_t found = 0;            // winners found in all, kept or not
  bool overflow = false;              // more winners than `capacity`: `nonces` holds the smallest

  bool operator==(const MiningSearchResult&) const = default;
};

// The 256-bit target that a header's compact "bits" field encodes (mantissa times
// 256^(exponent - 3)), as 8 little-endian words, word 7 the most significant. Throws
// std::invalid_argument for a negative target or one that does not fit in 256 bits.
std::array<std::uint32_t, 8> target_from_bits(std::uint32_t bits);

namespace detail {

inline constexpr std::uint32_t header_bytes = 80;  // a Bitcoin-style block header, nonce in bytes 76..79

// hash <= target, both 8 little-endian words of a 256-bit number (word 7 most significant).
inline Bool at_most(const Sha256State& hash, const ReadBuffer<std::uint32_t>& target) {
  Bool below = false, equal = true;
  for (int k = 7; k >= 0; --k) {
    UInt t = target[std::uint32_t(k)];
    below = below || (equal && hash[k] < t);
    equal = equal && hash[k] == t;
  }
  return below || equal;
}

// The winners a finished search appended to `winners` (capacity words) through `counter`.
MiningSearchResult read_winners(Device& device, const DeviceBuffer<std::uint32_t>& counter,
                                const DeviceBuffer<std::uint32_t>& winners);

}  // namespace detail

}  // namespace sprig::hash
