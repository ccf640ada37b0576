// Proof assembly and the plotter's output (pos-spec §1.6): a table-7 entry expanded depth-first
// to its 64 x values, and PosProofs — the found-proofs bitmap and the first 2^15 proofs in
// s-bucket order.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "proof_packing.hpp"
#include "proof_targets.hpp"
#include "tables.hpp"

namespace pos_ref {

// The 64 x values under table-7 entry `t7_position`, left before right at every level.
ProofXs expand_proof(const Tables& tables, std::uint32_t t7_position);

struct PosProofs {
  std::array<std::uint8_t, num_s_buckets / 8> found_proofs{};  // bit s % 8 (LSB-first) of byte s / 8
  std::vector<std::uint32_t> s_buckets;  // the s-bucket of each proof, ascending
  std::vector<std::uint8_t> proofs;      // proof i at [i·8K, (i + 1)·8K)
  int k = 0;

  std::size_t count() const { return s_buckets.size(); }
  std::span<const std::uint8_t> proof(std::size_t i) const {
    return std::span<const std::uint8_t>(proofs).subspan(i * proof_bytes(k), proof_bytes(k));
  }
  bool found(std::uint32_t s) const { return (found_proofs[s / 8] >> (s % 8)) & 1; }
};

// Scans s = 0 .. 2^16 - 1; every s with a target sets its bit and appends its proof, until
// 2^15 proofs (later bits stay 0).
PosProofs create_proofs(const Tables& tables);
PosProofs create_proofs(const Tables& tables, const std::vector<ProofTarget>& targets);

// Subspace's find_proof(challenge_index): the packed proof of the first matching entry, if any.
std::optional<std::vector<std::uint8_t>> subspace_find_proof(const Tables& tables, std::uint32_t challenge_index);

}  // namespace pos_ref
