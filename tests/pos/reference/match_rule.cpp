// The match rule. Because 64 < 119 the 64 targets of one left r are all different, so a
// matching pair has exactly one m.
#include "match_rule.hpp"

namespace pos_ref {

LeftTargets::LeftTargets() : targets_(2 * param_bc * param_m) {
  for (std::uint32_t parity = 0; parity < 2; ++parity)
    for (std::uint32_t r = 0; r < param_bc; ++r)
      for (std::uint32_t m = 0; m < param_m; ++m)
        targets_[(parity * param_bc + r) * param_m + m] = std::uint16_t(left_target(parity, r, m));
}

const LeftTargets& left_targets() {
  static const LeftTargets targets;
  return targets;
}

std::optional<std::uint32_t> match_m(std::uint64_t y_left, std::uint64_t y_right) {
  std::uint32_t b = bucket_of(y_left);
  if (bucket_of(y_right) != b + 1) return std::nullopt;
  std::uint32_t r_left = r_of(y_left), r_right = r_of(y_right);
  for (std::uint32_t m = 0; m < param_m; ++m)
    if (left_target(b % 2, r_left, m) == r_right) return m;
  return std::nullopt;
}

}  // namespace pos_ref
