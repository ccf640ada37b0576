// Which table-7 entry proves each s-bucket (pos-spec §1.5 last bullets, §1.8 find_proof).
// Abundance: the first table-7 match in (bucket pair, match index) order with y >> 6 == s.
// Subspace: the first table-7 entry in (y, position) order whose y >> 6 equals the byte-swapped
// challenge index's first K bits.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tables.hpp"

namespace pos_ref {

struct ProofTarget {
  bool found = false;
  std::uint32_t t7_position = 0;  // the winning entry of table 7
  Pair t6_pair{0, 0};             // its [left, right] in table 6 (what the GPU's find_proofs reads)
  bool operator==(const ProofTarget&) const = default;
};

// Subspace's fk: u32_be(challenge_index.to_le_bytes()) >> (32 - K).
std::uint32_t subspace_challenge_bits(int k, std::uint32_t challenge_index);

// The table-7 entry Subspace's find_proof returns for `challenge_index`, if any (Subspace tables only).
std::optional<std::uint32_t> subspace_find_t7(const Tables& tables, std::uint32_t challenge_index);

// The target of every s-bucket 0 .. 2^16 - 1 by the tables' own mode; for Subspace tables
// s-bucket s is challenge index s, as the farmer passes it.
std::vector<ProofTarget> s_bucket_targets(const Tables& tables);

}  // namespace pos_ref
