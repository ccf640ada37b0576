#include "proofs.hpp"

#include <stdexcept>

namespace pos_ref {

ProofXs expand_proof(const Tables& tables, std::uint32_t t7_position) {
  // Replacing every position by its pair, table by table, is the depth-first left-first order.
  std::vector<std::uint32_t> positions{t7_position};
  for (int t = 7; t >= 2; --t) {
    const Table& table = tables.table[t];
    std::vector<std::uint32_t> next;
    next.reserve(2 * positions.size());
    for (std::uint32_t p : positions) {
      if (p >= table.parents.size())
        throw std::out_of_range("expand_proof: position " + std::to_string(p) + " is not in table " + std::to_string(t));
      next.push_back(table.parents[p][0]);
      next.push_back(table.parents[p][1]);
    }
    positions = std::move(next);
  }
  ProofXs xs;
  for (std::size_t i = 0; i < 64; ++i) xs[i] = tables.table[1].xs.at(positions[i]);
  return xs;
}

PosProofs create_proofs(const Tables& tables) { return create_proofs(tables, s_bucket_targets(tables)); }

PosProofs create_proofs(const Tables& tables, const std::vector<ProofTarget>& targets) {
  if (targets.size() != num_s_buckets)
    throw std::invalid_argument("create_proofs: " + std::to_string(targets.size()) + " targets, not 2^16");
  PosProofs out;
  out.k = tables.k;
  for (std::uint32_t s = 0; s < num_s_buckets && out.count() < num_chunks; ++s) {
    if (!targets[s].found) continue;
    out.found_proofs[s / 8] |= std::uint8_t(1u << (s % 8));
    out.s_buckets.push_back(s);
    auto proof = pack_proof(tables.k, expand_proof(tables, targets[s].t7_position));
    out.proofs.insert(out.proofs.end(), proof.begin(), proof.end());
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> subspace_find_proof(const Tables& tables, std::uint32_t challenge_index) {
  auto p = subspace_find_t7(tables, challenge_index);
  if (!p) return std::nullopt;
  return pack_proof(tables.k, expand_proof(tables, *p));
}

}  // namespace pos_ref
