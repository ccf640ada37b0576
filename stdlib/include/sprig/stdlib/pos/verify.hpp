// Verification of proofs on the device, batched: for each (seed, challenge, proof), F1 of the
// 64 x values (ChaCha8 blocks computed where x's K bits lie, no keystream buffer), then for
// tables 2..7 every pair (2i, 2i + 1) must match — bucket(y_R) == bucket(y_L) + 1 and the
// m rule — and feeds compute_fn; valid iff no pair failed and (y7 >> 6) == challenge.
//
//   pos::Verifier verifier(device, k);
//   std::vector<std::uint8_t> ok = verifier.verify(seed, challenges, proofs);  // 1 = valid
//
// One launch per level, one invocation per (proof, entry) of the level, so a batch of N
// proofs runs 64N, 32N, ..., N invocations. A failed pair marks the entry it makes, and the
// mark goes upwards.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/chacha_block.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/compute_fn.hpp"
#include "sprig/stdlib/pos/f1.hpp"
#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/y_value.hpp"

namespace sprig::pos {

// Each entry of a level: its metadata (a Wide), then a word that is 1 where the entry comes
// from a pair that does not match. (A y cannot mark it: at K = 26 every 32-bit y is one.)
inline constexpr std::uint32_t verify_metadata_words = 4;
inline constexpr std::uint32_t verify_entry_words = verify_metadata_words + 1;

// The match rule for one pair (pos-spec §1.4): right's bucket follows left's, and right's r is
// left's target for the one m with ((b_R - b_L) mod 119) == m, which exists iff it is < 64.
inline Bool pair_matches(const YValue& y_left, const YValue& y_right) {
  UInt bucket_left = bucket_of(y_left), bucket_right = bucket_of(y_right);
  UInt r_left = r_of(y_left, bucket_left), r_right = r_of(y_right, bucket_right);
  UInt b_left = r_left / param_c, c_left = r_left % param_c;
  UInt b_right = r_right / param_c, c_right = r_right % param_c;
  UInt m = (b_right + param_b - b_left) % param_b;
  UInt two_m_p = 2u * m + (bucket_left & 1u);
  return (bucket_right == bucket_left + 1u) && (m < param_m) && ((two_m_p * two_m_p + c_left) % param_c == c_right);
}

}  // namespace sprig::pos

namespace sprig::pos::detail {

// Words q and q + 1 of a keystream, presented as f1_y reads them (keystream[q].load()).
struct KeystreamPair {
  UInt q, first, second;
  struct Word {
    UInt value;
    UInt load() const { return value; }
  };
  Word operator[](const UInt& index) const { return Word{select(index == q, first, second)}; }
};

// Word `w` (dynamic) of a 16-word block.
inline UInt block_word(const hash::ChachaWords& block, const UInt& w) {
  UInt out = block[0];
  for (std::uint32_t j = 1; j < 16; ++j) out = select(w == j, block[j], out);
  return out;
}

// One invocation per (proof i, x index j): x_j read from the packed proof, its y by F1 from
// the ChaCha8 block(s) holding keystream bits [K x, K x + K).
using VerifyF1Kernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
                              WriteBuffer<std::uint32_t>, UInt>;
const VerifyF1Kernel& verify_f1_kernel(int k);

// Table `table` (2..7): one invocation per (proof, pair) of the level below.
using VerifyTableKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
                                 WriteBuffer<std::uint32_t>, UInt>;
const VerifyTableKernel& verify_table_kernel(int k, int table);

// valid[i] = 1 iff table 7's entry is unmarked and its y's first K bits equal the challenge
// (table 7's ys and entries, the challenges). A level's ys take y_words(k) words an entry.
using VerifyResultKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                                  WriteBuffer<std::uint32_t>, UInt>;
const VerifyResultKernel& verify_result_kernel(int k);

}  // namespace sprig::pos::detail

namespace sprig::pos {

class Verifier {
 public:
  Verifier(Device& device, int k);
  int k() const { return k_; }

  // Records the verification of `count` proofs: proof i is 2K words of `proofs` (bytes in
  // proof order, byte_words.hpp), its seed 8 words of `seeds` (the seed's bytes as the
  // ChaCha key), its challenge word i of `challenges`; valid[i] becomes 1 or 0.
  void record(Sequence& sequence, const DeviceBuffer<std::uint32_t>& seeds,
              const DeviceBuffer<std::uint32_t>& challenges, const DeviceBuffer<std::uint32_t>& proofs,
              std::size_t count, const DeviceBuffer<std::uint32_t>& valid);

  // Verifies proofs of 8K bytes each, back to back, with one seed per proof; 1 = valid.
  std::vector<std::uint8_t> verify(std::span<const Seed> seeds, std::span<const std::uint32_t> challenges,
                                   std::span<const std::uint8_t> proofs);

  // The same seed for every proof (a record's proofs).
  std::vector<std::uint8_t> verify(const Seed& seed, std::span<const std::uint32_t> challenges,
                                   std::span<const std::uint8_t> proofs);

 private:
  Device& device_;
  int k_;
};

}  // namespace sprig::pos
