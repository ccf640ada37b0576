// Quality strings of proofs (Chia's find_quality, Subspace's full-chiapos feature), batched
// on a device: for a 32-byte challenge and a proof, q = challenge[31] & 31 picks the x pair
// (x[2q], x[2q + 1]) — the pair reached by walking down from table 7, taking the right
// parent at table t where bit t - 2 of q is set — and the quality is
// SHA-256(challenge ‖ x[2q] ‖ x[2q + 1]), the two x values packed MSB-first in ⌈2K/8⌉ bytes.
// A quality means something only for a proof that verifies for the challenge's first K
// bits (pos::Verifier, with pos::challenge_bits).
//
//   std::vector<pos::Quality> q = pos::qualities(device, k, challenges, proofs);
#pragma once

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/sha256_compress.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

using Challenge = std::array<std::uint8_t, 32>;
using Quality = std::array<std::uint8_t, 32>;

// The first K bits of a challenge, big-endian: what a proof's table-7 y >> 6 must equal.
std::uint32_t challenge_bits(int k, const Challenge& challenge);

namespace detail {

// x number `index` (0..63) of a proof held as big-endian words: K bits from bit K * index.
template <class Words>
UInt proof_x(const Words& big_endian_word, int k, const UInt& index) {
  UInt start = index * std::uint32_t(k);
  UInt q = start >> 5u, offset = start & 31u;
  UInt high = big_endian_word(q) << offset;
  UInt low = select(offset == 0u, UInt(0u), big_endian_word(q + 1u) >> (32u - offset));  // no shift by 32
  return (high | low) >> std::uint32_t(32 - k);
}

// qualities[8i .. 8i + 8) = the quality of proof i for challenge i (words as byte_words.hpp).
using QualityKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt>;
const QualityKernel& quality_kernel(int k);

}  // namespace detail

// Records the qualities of `count` proofs (2K words each) for their challenges (8 words each).
void record_qualities(Sequence& sequence, int k, const DeviceBuffer<std::uint32_t>& challenges,
                      const DeviceBuffer<std::uint32_t>& proofs, std::size_t count,
                      const DeviceBuffer<std::uint32_t>& qualities);

// The qualities of proofs (8K bytes each, back to back) for one challenge each.
std::vector<Quality> qualities(Device& device, int k, std::span<const Challenge> challenges,
                               std::span<const std::uint8_t> proofs);

}  // namespace sprig::pos
