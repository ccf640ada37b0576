// Matching one bucket pair. Right entries with equal r are linked in bucket order, so "the
// first two" (Abundance) and "all, in order" (Subspace) are the same walk with a different limit.
#include "find_matches.hpp"

#include <stdexcept>

#include "match_rule.hpp"

namespace pos_ref {

Rmap::Rmap() : count_(param_bc, 0), first_(param_bc), last_(param_bc), next_(0) {}

void Rmap::find_matches(std::span<const Entry> left, std::span<const Entry> right, std::uint32_t left_bucket,
                        const ModeLimits& limits, std::vector<Match>& out) {
  out.clear();
  if (right.size() > 0xffff) throw std::logic_error("find_matches: a bucket of more than 65535 entries");
  next_.resize(right.size());
  // Bucket bases pass 2^32 from bucket 284191 (K = 27 on); an entry's r (< 15113) fits a u32.
  const std::uint64_t right_base = std::uint64_t(left_bucket + 1) * param_bc;
  for (std::uint16_t j = 0; j < right.size(); ++j) {
    auto r = std::uint32_t(right[j].y - right_base);
    if (count_[r] == 0)
      first_[r] = j;
    else
      next_[last_[r]] = j;
    last_[r] = j;
    ++count_[r];
  }

  const std::uint64_t left_base = std::uint64_t(left_bucket) * param_bc;
  const std::uint32_t dup_limit = limits.duplicates == 0 ? 0xffffffffu : limits.duplicates;
  const LeftTargets& targets = left_targets();
  for (const Entry& l : left) {
    if (out.size() >= limits.matches_size) break;
    const std::uint16_t* t = targets.of(left_bucket % 2, std::uint32_t(l.y - left_base));
    for (std::uint32_t m = 0; m < param_m; ++m) {
      std::uint32_t n = count_[t[m]];
      if (n == 0) continue;
      if (n > dup_limit) n = dup_limit;
      for (std::uint32_t d = 0, j = first_[t[m]]; d < n; ++d, j = next_[j])
        out.push_back({l.position, l.y, right[j].position});
    }
  }
  if (out.size() > limits.matches_size) out.resize(limits.matches_size);

  for (const Entry& e : right) count_[e.y - right_base] = 0;
}

}  // namespace pos_ref
