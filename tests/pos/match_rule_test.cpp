// The match rule: the target formula equals Chia's original form, the 64 targets of a left r
// are distinct, and matches need adjacent buckets; buckets and matches of ys over 2^32
// (K = 27, 28).
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

TEST_CASE("ys of K = 27 and 28 have 568381 and 1136762 buckets, the largest y in the last") {
  CHECK(num_buckets(27) == 568381u);
  CHECK(num_pairs(27) == 568380u);
  CHECK(num_buckets(28) == 1136762u);
  CHECK(num_pairs(28) == 1136761u);
  CHECK(bucket_of(1ull << 32) == 284190u);  // not bucket 0, as a y cut to 32 bits would be
  CHECK(r_of(1ull << 32) == std::uint32_t((1ull << 32) - 284190ull * param_bc));
  CHECK(bucket_of((1ull << 33) - 1) == num_buckets(27) - 1);
  CHECK(r_of((1ull << 33) - 1) == 7651u);
  CHECK(bucket_of((1ull << 33) - 1 - 7651) == num_buckets(27) - 1);  // the last bucket's first y
  CHECK(bucket_of((1ull << 33) - 1 - 7652) == num_buckets(27) - 2);
  CHECK(bucket_of((1ull << 34) - 1) == num_buckets(28) - 1);
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

TEST_CASE("match_m finds m for ys over 2^32, in the last bucket pair of K = 28") {
  // The last bucket holds only r <= 190 (2^34 - 1 = 1136761·15113 + 190); m = 1 targets r 18.
  const std::uint64_t b = num_pairs(28) - 1, r_left = 15000;
  const std::uint32_t m = 1;
  const std::uint64_t y_left = b * param_bc + r_left,
                      y_right = (b + 1) * param_bc + left_target(std::uint32_t(b % 2), std::uint32_t(r_left), m);
  REQUIRE(y_right < (1ull << 34));
  CHECK(match_m(y_left, y_right) == std::optional<std::uint32_t>(m));
  CHECK_FALSE(matches(y_left, y_right - param_bc));
  CHECK_FALSE(matches(y_left + (1ull << 32), y_right));  // a y 2^32 on is another bucket, not the same
}
