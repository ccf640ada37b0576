#include "proof_targets.hpp"

#include <algorithm>
#include <stdexcept>

#include "bits.hpp"

namespace pos_ref {

std::uint32_t subspace_challenge_bits(int k, std::uint32_t challenge_index) {
  check_k(k);
  return byte_swap(challenge_index) >> (32 - k);
}

std::optional<std::uint32_t> subspace_find_t7(const Tables& tables, std::uint32_t challenge_index) {
  if (tables.mode != Mode::Subspace) throw std::invalid_argument("subspace_find_t7: the tables are not Subspace's");
  const std::vector<std::uint64_t>& ys = tables.table[7].ys;  // sorted: Subspace positions follow y
  std::uint32_t fk = subspace_challenge_bits(tables.k, challenge_index);
  auto it = std::lower_bound(ys.begin(), ys.end(), std::uint64_t(fk) << param_ext);  // K + 6 bits
  if (it == ys.end() || (*it >> param_ext) != fk) return std::nullopt;
  return std::uint32_t(it - ys.begin());
}

std::vector<ProofTarget> s_bucket_targets(const Tables& tables) {
  const Table& t7 = tables.table[7];
  std::vector<ProofTarget> targets(num_s_buckets);
  if (tables.mode == Mode::Subspace) {
    for (std::uint32_t s = 0; s < num_s_buckets; ++s)
      if (auto p = subspace_find_t7(tables, s)) targets[s] = {true, *p, t7.parents[*p]};
    return targets;
  }
  for (std::uint32_t b = 0; b < t7.pair_sizes.size(); ++b)
    for (std::uint32_t i = 0; i < t7.pair_sizes[b]; ++i) {
      std::uint32_t p = b * t7.slots_per_pair + i;
      std::uint64_t s = t7.ys[p] >> param_ext;  // K bits
      if (s < num_s_buckets && !targets[s].found) targets[s] = {true, p, t7.parents[p]};
    }
  return targets;
}

}  // namespace pos_ref
