// Table construction: the published K = 20 Abundance table sizes, and at small K the rules
// each stage follows (bucket order and truncation, match order and limits, positions); the
// matching of one bucket pair also with ys over 2^32, as K = 27 and 28 have them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "pos_test_support.hpp"

using namespace pos_ref;

namespace {

const Tables& k15_tables(Mode mode) {
  if (mode == Mode::Abundance) {
    static const Tables abundance = build_tables(pos_test::subspace_test_seed, 15, mode);
    return abundance;
  }
  static const Tables subspace = build_tables(pos_test::subspace_test_seed, 15, mode);
  return subspace;
}

// A second, deliberately naive matcher: every left entry in bucket order, m = 0..63, right
// entries in bucket order, at most `duplicates` per target (0 = all), then the cut.
std::vector<Match> naive_matches(std::span<const Entry> left, std::span<const Entry> right, std::uint32_t b,
                                 const ModeLimits& lim) {
  std::vector<Match> out;
  for (const Entry& l : left) {
    if (out.size() >= lim.matches_size) break;
    for (std::uint32_t m = 0; m < param_m; ++m) {
      std::uint32_t used = 0;
      for (const Entry& r : right)
        if (r_of(r.y) == left_target(b % 2, r_of(l.y), m) && (lim.duplicates == 0 || used < lim.duplicates)) {
          out.push_back({l.position, l.y, r.position});
          ++used;
        }
    }
  }
  if (out.size() > lim.matches_size) out.resize(lim.matches_size);
  return out;
}

}  // namespace

TEST_CASE("Abundance K = 20 tables have the published sizes for the test seed") {
  const Tables& t = pos_test::k20_tables(Mode::Abundance);
  CHECK(t.table[1].entries == 1048576u);
  CHECK(t.table[2].entries == 1044519u);
  CHECK(t.table[3].entries == 1040231u);
  CHECK(t.table[4].entries == 1031013u);
  CHECK(t.table[5].entries == 1012716u);
  CHECK(t.table[6].entries == 978576u);
  CHECK(t.table[7].entries == 913170u);
}

TEST_CASE("Abundance table 1 keeps the first 272 x of each bucket, in x order") {
  const Tables& t = k15_tables(Mode::Abundance);
  auto ys = f1_all(pos_test::subspace_test_seed, 15);
  std::vector<std::vector<std::uint32_t>> expected(num_buckets(15));
  for (std::uint32_t x = 0; x < ys.size(); ++x)
    if (expected[bucket_of(ys[x])].size() < 272) expected[bucket_of(ys[x])].push_back(x);
  std::size_t full = 0;
  for (std::uint32_t b = 0; b < num_buckets(15); ++b) {
    auto bucket = t.table[1].buckets.bucket(b);
    REQUIRE(bucket.size() == expected[b].size());
    for (std::size_t i = 0; i < bucket.size(); ++i) {
      CHECK(bucket[i].position == expected[b][i]);
      CHECK(bucket[i].y == ys[expected[b][i]]);
    }
    full += bucket.size() == 272;
  }
  CHECK(full > 0);  // the cut is exercised
}

TEST_CASE("Subspace table 1 is numbered in (y, x) order and its buckets follow it") {
  const Table& t1 = k15_tables(Mode::Subspace).table[1];
  auto ys = f1_all(pos_test::subspace_test_seed, 15);
  for (std::uint32_t p = 0; p + 1 < t1.ys.size(); ++p) {
    REQUIRE(t1.ys[p] == ys[t1.xs[p]]);
    REQUIRE((t1.ys[p] < t1.ys[p + 1] || (t1.ys[p] == t1.ys[p + 1] && t1.xs[p] < t1.xs[p + 1])));
  }
  std::uint32_t p = 0;
  for (std::uint32_t b = 0; b < num_buckets(15); ++b)
    for (const Entry& e : t1.buckets.bucket(b)) {
      REQUIRE(e.position == p);
      REQUIRE(e.y == t1.ys[p++]);
    }
  CHECK(p == 1u << 15);  // no bucket reaches 512
}

TEST_CASE("matches of a bucket pair follow (left, m, duplicate) order in both modes") {
  for (Mode mode : {Mode::Abundance, Mode::Subspace}) {
    const Tables& t = k15_tables(mode);
    Rmap rmap;
    std::vector<Match> matches;
    std::size_t cut = 0, right_duplicates = 0;
    for (int table = 1; table <= 6; ++table) {
      const Buckets& buckets = t.table[table].buckets;
      for (std::uint32_t b = 0; b < num_pairs(15); ++b) {
        // Every 23rd pair, and every pair cut at the match limit (the naive matcher is slow).
        if (b % 23 != 0 && t.table[table + 1].pair_sizes[b] < limits(mode).matches_size) continue;
        rmap.find_matches(buckets.bucket(b), buckets.bucket(b + 1), b, limits(mode), matches);
        REQUIRE(matches == naive_matches(buckets.bucket(b), buckets.bucket(b + 1), b, limits(mode)));
        REQUIRE(matches.size() == t.table[table + 1].pair_sizes[b]);
        cut += matches.size() == limits(mode).matches_size;
        for (std::size_t i = 1; i < matches.size(); ++i) right_duplicates += matches[i].left_y == matches[i - 1].left_y &&
                                                                               matches[i].left_position == matches[i - 1].left_position;
      }
    }
    INFO(mode_name(mode));
    CHECK(right_duplicates > 0);
    if (mode == Mode::Abundance) CHECK(cut > 0);
  }
}

// Whole tables at K = 27 are too big for a test; one synthetic bucket pair near the top of
// y's range is not. Its ys are all over 2^32, so a bucket base or r taken in 32 bits breaks it.
TEST_CASE("matches of a bucket pair with ys over 2^32 follow the same rules, in both modes") {
  std::mt19937 rng(2728);
  for (int k : {27, 28}) {
    for (std::uint32_t b : {num_pairs(k) - 1, num_pairs(k) - 2, 300000u}) {
      // The last bucket is cut short where y runs out of bits.
      const std::uint64_t right_rs = b + 1 == num_pairs(k) ? r_of((1ull << y_bits(k)) - 1) + 1 : param_bc;
      std::vector<Entry> left, right;
      for (std::uint32_t i = 0; i < 300; ++i) {
        left.push_back({b * 288 + i, std::uint64_t(b) * param_bc + rng() % param_bc});
        std::uint64_t r = i % 5 == 1 ? right.back().y % param_bc : rng() % right_rs;  // some duplicates
        right.push_back({(b + 1) * 288 + i, std::uint64_t(b + 1) * param_bc + r});
      }
      REQUIRE(left.front().y > (1ull << 32));
      REQUIRE(right.back().y < (1ull << y_bits(k)));
      for (Mode mode : {Mode::Abundance, Mode::Subspace}) {
        INFO("K = " << k << ", bucket " << b << ", " << mode_name(mode));
        Rmap rmap;
        std::vector<Match> found;
        rmap.find_matches(left, right, b, limits(mode), found);
        CHECK(found.size() > 100u);
        CHECK(found == naive_matches(left, right, b, limits(mode)));
        for (const Match& m : found) REQUIRE(m.left_y > (1ull << 32));
      }
    }
  }
}

TEST_CASE("every entry of tables 2..7 is a matching pair with compute_fn's y") {
  for (Mode mode : {Mode::Abundance, Mode::Subspace}) {
    const Tables& t = k15_tables(mode);
    for (int table = 2; table <= 7; ++table) {
      const Table &child = t.table[table], &parent = t.table[table - 1];
      std::vector<std::uint32_t> positions;
      for (std::uint32_t b = 0; b < child.pair_sizes.size(); ++b)
        for (std::uint32_t i = 0; i < child.pair_sizes[b]; ++i)
          positions.push_back(mode == Mode::Abundance ? b * child.slots_per_pair + i : std::uint32_t(positions.size()));
      REQUIRE(positions.size() == child.entries);
      for (std::size_t i = 0; i < positions.size(); i += 3) {
        std::uint32_t p = positions[i];
        auto [l, r] = child.parents[p];
        REQUIRE(matches(parent.ys[l], parent.ys[r]));
        auto out = compute_fn(15, table, parent.ys[l], parent.metadata_at(l), parent.metadata_at(r));
        REQUIRE(child.ys[p] == out.y);
        if (table <= 6) REQUIRE(child.metadata[p] == out.metadata);
      }
      if (mode == Mode::Subspace)  // positions in (y, left, right) order
        for (std::uint32_t p = 0; p + 1 < child.entries; ++p)
          REQUIRE(std::tie(child.ys[p], child.parents[p]) < std::tie(child.ys[p + 1], child.parents[p + 1]));
    }
  }
}

TEST_CASE("Abundance child buckets hold positions in order, cut at 272") {
  const Tables& t = k15_tables(Mode::Abundance);
  for (int table = 2; table <= 6; ++table) {
    const Table& child = t.table[table];
    std::vector<std::uint32_t> sizes(num_buckets(15), 0);
    std::vector<Entry> expected;
    for (std::uint32_t b = 0; b < child.pair_sizes.size(); ++b)
      for (std::uint32_t i = 0; i < child.pair_sizes[b]; ++i) {
        std::uint32_t p = b * 288 + i;
        if (sizes[bucket_of(child.ys[p])]++ < 272) expected.push_back({p, child.ys[p]});
      }
    std::vector<Entry> actual;
    for (std::uint32_t b = 0; b < num_buckets(15); ++b) {
      auto bucket = child.buckets.bucket(b);
      for (const Entry& e : bucket) REQUIRE(bucket_of(e.y) == b);
      actual.insert(actual.end(), bucket.begin(), bucket.end());
    }
    std::sort(actual.begin(), actual.end(), [](const Entry& a, const Entry& c) { return a.position < c.position; });
    CHECK(actual == expected);
  }
}

TEST_CASE("building tables rejects K out of range and a parent of the wrong table") {
  CHECK_THROWS_WITH(build_tables(pos_test::subspace_test_seed, 14, Mode::Abundance),
                    Catch::Contains("K = 14 is out of range (supported: 15..28)"));
  CHECK_THROWS_WITH(build_tables(pos_test::subspace_test_seed, 29, Mode::Subspace), Catch::Contains("K = 29"));
  const Tables& t = k15_tables(Mode::Abundance);
  CHECK_THROWS_WITH(build_child_table(t.table[2], 15, Mode::Abundance, 4),
                    Catch::Contains("table 4 needs table 3 as its parent, not table 2"));
}
