// The bucketing (stdlib/include/sprig/stdlib/pos/buckets.hpp) against a direct CPU grouping,
// on inputs chosen to reach every path: Abundance's holes and all-ones ys, a bucket exactly
// full, buckets past their capacity that still fit the staging (the first 272 by position
// kept), one whose entries are neighbours, buckets past the staging (the walk in position
// order), each slot's link or x, and Subspace's runs.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/stdlib/pos/buckets.hpp"
#include "backends.hpp"

namespace {

namespace pos = sprig::pos;

struct Grouped {
  std::vector<std::uint32_t> sizes;
  std::vector<std::uint32_t> positions, ys;  // capacity per bucket; the first sizes[b] are compared
};

// Position p is an entry unless it is a hole (p % slots_per_pair >= pair_sizes[...]) or its
// y is all ones; each bucket keeps its first `capacity` entries by position.
Grouped group_on_cpu(int k, pos::Mode mode, const std::vector<std::uint32_t>& ys,
                     const std::vector<std::uint32_t>& pair_sizes, std::uint32_t slots_per_pair) {
  const std::uint32_t buckets = pos::num_buckets(k), capacity = pos::bucket_capacity(mode);
  Grouped g{std::vector<std::uint32_t>(buckets, 0), std::vector<std::uint32_t>(std::size_t(buckets) * capacity, 0),
            std::vector<std::uint32_t>(std::size_t(buckets) * capacity, 0)};
  for (std::uint32_t p = 0; p < ys.size(); ++p) {
    if (slots_per_pair != 0 && p % slots_per_pair >= pair_sizes[p / slots_per_pair]) continue;
    const std::uint32_t key = std::min(ys[p] / pos::param_bc, pos::hole_key(k));
    if (key == pos::hole_key(k) || g.sizes[key] == capacity) continue;
    const std::size_t slot = std::size_t(key) * capacity + g.sizes[key]++;
    g.positions[slot] = p;
    g.ys[slot] = ys[p];
  }
  return g;
}

// `slot_links`: Abundance's links by bucket slot as well (the slot's position, or a word
// per position standing in for a table's links). `where`: Abundance's positions in the slots
// or apart from them, packed.
void require_same_buckets(sprig::Device& dev, int k, pos::Mode mode, const std::vector<std::uint32_t>& ys,
                          const std::vector<std::uint32_t>& pair_sizes, std::uint32_t slots_per_pair,
                          pos::SlotLinks slot_links = pos::SlotLinks::None,
                          pos::SlotPositions where = pos::SlotPositions::InSlots) {
  const std::uint32_t buckets = pos::num_buckets(k), capacity = pos::bucket_capacity(mode);
  auto ys_buffer = dev.upload(ys);
  auto pair_sizes_buffer = dev.upload(pair_sizes);
  const bool apart = where == pos::SlotPositions::Apart;
  pos::Buckets out{dev.alloc<std::uint32_t>(std::size_t(buckets) * pos::bucket_words(mode, where)),
                   dev.alloc<std::uint32_t>(buckets), where,
                   dev.alloc<std::uint32_t>(apart ? pos::bucket_position_words(k) : 1)};
  std::vector<std::uint32_t> links(ys.size());
  for (std::size_t p = 0; p < links.size(); ++p) links[p] = std::uint32_t(p * 2654435761u);
  auto links_buffer = dev.upload(links);
  auto by_slot = dev.alloc<std::uint32_t>(std::size_t(buckets) * capacity);
  auto sequence = dev.sequence();
  for (const pos::RecordStep& step :
       pos::bucketing_steps(dev, k, mode, ys_buffer, pair_sizes_buffer, slots_per_pair, std::uint32_t(ys.size()), out,
                            pos::SlotLinkOutput{slot_links, &links_buffer, &by_slot}))
    step(sequence);
  sequence.run_and_wait();
  const Grouped expected = group_on_cpu(k, mode, ys, pair_sizes, slots_per_pair);
  const std::vector<std::uint32_t> sizes = dev.download(out.sizes), slots = dev.download(out.slots);
  const std::vector<std::uint32_t> positions = dev.download(out.positions);
  REQUIRE(sizes == expected.sizes);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    INFO("bucket " << b << " of size " << sizes[b]);
    for (std::uint32_t rank = 0; rank < sizes[b]; ++rank) {
      INFO("rank " << rank);
      REQUIRE((apart ? pos::apart_slot_position(positions, k, b, rank) : pos::slot_position(slots, mode, b, rank)) ==
              expected.positions[std::size_t(b) * capacity + rank]);
      REQUIRE(pos::slot_y(slots, mode, b, rank, where) == expected.ys[std::size_t(b) * capacity + rank]);
    }
  }
  if (slot_links == pos::SlotLinks::None) return;
  const std::vector<std::uint32_t> got = dev.download(by_slot);
  for (std::uint32_t b = 0; b < buckets; ++b) {
    for (std::uint32_t rank = 0; rank < sizes[b]; ++rank) {
      const std::uint32_t position = expected.positions[std::size_t(b) * capacity + rank];
      INFO("bucket " << b << ", rank " << rank);
      REQUIRE(got[std::size_t(b) * capacity + rank] ==
              (slot_links == pos::SlotLinks::Positions ? position : links[position]));
    }
  }
}

// ys of bucket b spread over its range, so that ranks inside a bucket are not in y order.
std::uint32_t y_in_bucket(std::uint32_t b, std::mt19937& rng) { return b * pos::param_bc + rng() % pos::param_bc; }

}  // namespace

TEST_CASE("Abundance bucketing keeps each bucket's first 272 entries by position", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const int k = 15;
  const std::uint32_t buckets = pos::num_buckets(k), capacity = pos::bucket_capacity(pos::Mode::Abundance);
  std::mt19937 rng(20261127);
  std::vector<std::uint32_t> ys(std::size_t(1) << k);
  for (std::uint32_t& y : ys) y = y_in_bucket(rng() % buckets, rng);
  // Bucket 3 exactly full, bucket 7 one past it, bucket 11 past the 408-position staging
  // (its entries spread over the whole table, the last ones at its end), bucket 12 empty.
  auto fill_bucket = [&](std::uint32_t b, std::uint32_t entries) {
    for (std::uint32_t& y : ys)
      if (y / pos::param_bc == b) y = y_in_bucket(b + 20, rng);
    for (std::uint32_t i = 0; i < entries; ++i) ys[(i * 7919u + b) % ys.size()] = y_in_bucket(b, rng);
  };
  // Bucket 20: 300 neighbouring positions (the ranking groups close positions together).
  fill_bucket(20, 0);
  for (std::uint32_t p = 1000; p < 1300; ++p) ys[p] = y_in_bucket(20, rng);
  fill_bucket(3, capacity);
  fill_bucket(7, capacity + 1);
  fill_bucket(11, 3 * capacity);
  fill_bucket(12, 0);
  // Buckets 13 and 14: the staging exactly full, and one position past it.
  fill_bucket(13, pos::bucket_words(pos::Mode::Abundance));
  fill_bucket(14, pos::bucket_words(pos::Mode::Abundance) + 1);
  ys[5] = ~0u;  // no entry
  SECTION("table 1: every position an entry, each slot's x") {
    require_same_buckets(dev, k, pos::Mode::Abundance, ys, {0}, 0, pos::SlotLinks::Positions);
  }
  SECTION("tables 2..7: holes past each pair's matches") {
    const std::uint32_t slots_per_pair = pos::matches_per_pair(pos::Mode::Abundance);
    std::vector<std::uint32_t> pair_sizes((ys.size() + slots_per_pair - 1) / slots_per_pair);
    for (std::uint32_t& s : pair_sizes) s = rng() % (slots_per_pair + 1);
    pair_sizes[0] = slots_per_pair;
    pair_sizes[1] = 0;
    require_same_buckets(dev, k, pos::Mode::Abundance, ys, pair_sizes, slots_per_pair, pos::SlotLinks::FromLinks);
  }
  SECTION("tables 2..7 with the positions apart from the slots (parent ranks)") {
    const std::uint32_t slots_per_pair = pos::matches_per_pair(pos::Mode::Abundance);
    std::vector<std::uint32_t> pair_sizes((ys.size() + slots_per_pair - 1) / slots_per_pair);
    for (std::uint32_t& s : pair_sizes) s = rng() % (slots_per_pair + 1);
    pair_sizes[0] = slots_per_pair;
    require_same_buckets(dev, k, pos::Mode::Abundance, ys, pair_sizes, slots_per_pair, pos::SlotLinks::None,
                         pos::SlotPositions::Apart);
  }
  SECTION("table 1 with the positions apart, at an odd width") {
    // K = 16's positions take 17 bits: a bucket's 272 are padded to a word.
    std::vector<std::uint32_t> wider(std::size_t(1) << 16);
    for (std::uint32_t& y : wider) y = y_in_bucket(rng() % pos::num_buckets(16), rng);
    REQUIRE(pos::bucket_position_layout(16).padded());
    require_same_buckets(dev, 16, pos::Mode::Abundance, wider, {0}, 0, pos::SlotLinks::None, pos::SlotPositions::Apart);
  }
  SECTION("every entry in one bucket") {
    for (std::uint32_t& y : ys) y = y_in_bucket(buckets - 1, rng);
    require_same_buckets(dev, k, pos::Mode::Abundance, ys, {0}, 0);
  }
}

TEST_CASE("Subspace bucketing cuts each run of a y-ordered table at 512", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const int k = 15;
  std::mt19937 rng(7);
  std::vector<std::uint32_t> ys(std::size_t(1) << k);
  for (std::uint32_t& y : ys) y = y_in_bucket(rng() % 40, rng);  // about 800 a bucket: most are cut
  ys.back() = ~0u;
  std::sort(ys.begin(), ys.end());
  require_same_buckets(dev, k, pos::Mode::Subspace, ys, {0}, 0);
  const std::vector<std::uint32_t> no_pair_sizes{0};
  REQUIRE_THROWS_WITH(pos::bucketing_steps(dev, k, pos::Mode::Subspace, dev.upload(ys), dev.upload(no_pair_sizes), 288,
                                           std::uint32_t(ys.size()), pos::Buckets{}),
                      Catch::Contains("Subspace's tables have no holes"));
  REQUIRE_THROWS_WITH(pos::bucketing_steps(dev, k, pos::Mode::Subspace, dev.upload(ys), dev.upload(no_pair_sizes), 0,
                                           std::uint32_t(ys.size()), pos::Buckets{},
                                           pos::SlotLinkOutput{pos::SlotLinks::Positions}),
                      Catch::Contains("links and positions apart from the slots are Abundance's"));
  REQUIRE_THROWS_WITH(pos::bucketing_steps(dev, k, pos::Mode::Abundance, dev.upload(ys), dev.upload(no_pair_sizes), 0,
                                           std::uint32_t(ys.size()), pos::Buckets{},
                                           pos::SlotLinkOutput{pos::SlotLinks::FromLinks}),
                      Catch::Contains("slot links need the buffers"));
  pos::Buckets apart;
  apart.where = pos::SlotPositions::Apart;
  REQUIRE_THROWS_WITH(pos::bucketing_steps(dev, k, pos::Mode::Subspace, dev.upload(ys), dev.upload(no_pair_sizes), 0,
                                           std::uint32_t(ys.size()), apart),
                      Catch::Contains("positions apart from the slots are Abundance's"));
}
