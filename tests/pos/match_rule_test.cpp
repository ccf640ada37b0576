// The match rule: the target formula equals Chia's original form, the 64 targets of a left r
// are distinct, and matches need adjacent buckets.
#include <catch2/catch.hpp>

#include <set>

#include "pos_test_support.hpp"

using namespace pos_ref;

TEST_CASE("there are 4441 buckets of y at K = 20") {
  CHECK(num_buckets(20) == 4441u);
  CHECK(num_pairs(20) == 4440u);
  CHECK(bucket_of(15112) == 0u);
  CHECK(bucket_of(15113) == 1u);
}

TEST_CASE("left targets equal Chia's form (rb - lb) = m mod 119, (rc - lc) = (2m + parity)^2 mod 127") {
  for (std::uint32_t parity = 0; parity < 2; ++parity)
    for (std::uint32_t r = 0; r < param_bc; r += 7)
      for (std::uint32_t m = 0; m < param_m; ++m) {
        std::uint32_t t = left_target(parity, r, m);
        REQUIRE(t < param_bc);
        CHECK((t / param_c + param_b - r / param_c) % param_b == m);
        CHECK((t % param_c + param_c - r % param_c) % param_c == (2 * m + parity) * (2 * m + parity) % param_c);
        CHECK(left_targets().of(parity, r)[m] == t);
      }
}

TEST_CASE("the 64 targets of one left r are all different") {
  for (std::uint32_t r : {0u, 1u, 126u, 127u, 7000u, 15112u}) {
    std::set<std::uint32_t> targets;
    for (std::uint32_t m = 0; m < param_m; ++m) targets.insert(left_target(r % 2, r, m));
    CHECK(targets.size() == 64);
  }
}

TEST_CASE("match_m finds m for a right y in the next bucket and rejects other buckets") {
  std::uint32_t b = 10, r_left = 5000, m = 17;
  std::uint32_t y_left = b * param_bc + r_left, y_right = (b + 1) * param_bc + left_target(b % 2, r_left, m);
  CHECK(match_m(y_left, y_right) == std::optional<std::uint32_t>(m));
  CHECK(matches(y_left, y_right));
  // The same r two buckets on, or in the same bucket, fails the adjacency check.
  CHECK_FALSE(matches(y_left, y_right + param_bc));
  CHECK_FALSE(matches(y_left, y_right - param_bc));
  CHECK_FALSE(matches(y_left, y_right + 1));
}
