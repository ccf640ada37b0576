// Buckets and the match rule (pos-spec §1.3): entries match only across adjacent buckets b and
// b + 1, when the right r = y mod 15113 equals one of the 64 targets t(m) of the left r.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "params.hpp"

namespace pos_ref {

// y has up to 34 bits; its bucket (< num_buckets(28) = 1,136,762) and r fit a u32.
inline constexpr std::uint32_t bucket_of(std::uint64_t y) { return std::uint32_t(y / param_bc); }
inline constexpr std::uint32_t r_of(std::uint64_t y) { return std::uint32_t(y % param_bc); }

// t(m) = ((⌊r_L / 127⌋ + m) mod 119)·127 + (((2m + p)² + r_L) mod 127), p = left bucket parity.
inline constexpr std::uint32_t left_target(std::uint32_t parity, std::uint32_t r_left, std::uint32_t m) {
  std::uint32_t c = r_left / param_c;
  return ((c + m) % param_b) * param_c + ((2 * m + parity) * (2 * m + parity) + r_left) % param_c;
}

// All targets, [parity][r_left][m], as the table builders read them (1.9 MB, built once).
class LeftTargets {
 public:
  LeftTargets();
  const std::uint16_t* of(std::uint32_t parity, std::uint32_t r_left) const {
    return &targets_[(parity * param_bc + r_left) * param_m];
  }

 private:
  std::vector<std::uint16_t> targets_;
};
const LeftTargets& left_targets();

// The m for which y_right matches y_left, or nullopt. Checks the bucket adjacency
// (bucket(y_R) == bucket(y_L) + 1, as Chia's verifier does) as well as the target.
std::optional<std::uint32_t> match_m(std::uint64_t y_left, std::uint64_t y_right);
inline bool matches(std::uint64_t y_left, std::uint64_t y_right) { return match_m(y_left, y_right).has_value(); }

}  // namespace pos_ref
