// Subspace's renumbering (stdlib/include/sprig/stdlib/pos/subspace.hpp) against a CPU sort
// by (y, left, right) and the reference's compute_fn: holes, full and empty pairs, ys at
// the top of their range (which the holes' all-ones keys share in their sorted bits), runs
// of equal y whose (left, right) come in every order, and a dense table with too little
// room, which loses entries and says how many the table had.
#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "compute_fn.hpp"
#include "sprig/stdlib/pos/subspace.hpp"
#include "backends.hpp"

namespace {

namespace pos = sprig::pos;

struct Entry {
  std::uint32_t y, left, right, slot;
};

// A sparse table as matching writes it (each pair's matches from b * 512, in left order)
// over a parent table of random ys and metadata (table 1's: xs).
struct SparseTableData {
  int k = 15, table = 3;
  std::vector<std::uint32_t> pair_sizes, ys, parents;
  std::vector<std::uint32_t> parent_ys, parent_metadata, xs;
  std::vector<Entry> sorted;  // by (y, left, right)

  pos_ref::Metadata metadata_at(std::uint32_t position) const {
    if (table == 2) return xs[position];
    const std::uint32_t words = pos::metadata_words(k, table - 1);
    pos_ref::Metadata m = 0;
    for (std::uint32_t w = words; w-- > 0;) m = (m << 32) | parent_metadata[std::size_t(position) * words + w];
    return m;
  }
  // The child's metadata words (low word first), as the device stores them.
  std::vector<std::uint32_t> child_metadata(const Entry& e) const {
    pos_ref::Metadata m = pos_ref::compute_fn(k, table, parent_ys[e.left], metadata_at(e.left), metadata_at(e.right)).metadata;
    std::vector<std::uint32_t> words;
    for (std::uint32_t w = 0; w < pos::metadata_words(k, table); ++w, m >>= 32) words.push_back(std::uint32_t(m));
    return words;
  }
};

SparseTableData make_sparse_table(int k, int table, std::uint32_t pairs) {
  const std::uint32_t per_pair = pos::matches_per_pair(pos::Mode::Subspace), count = pairs * per_pair;
  const std::uint32_t top_y = (1u << pos::y_bits(k)) - 1, parent_entries = 1u << k;
  std::mt19937 rng(31);
  SparseTableData d;
  d.k = k;
  d.table = table;
  d.parent_ys.resize(parent_entries);
  for (std::uint32_t& y : d.parent_ys) y = rng() % (top_y + 1);
  d.xs.resize(parent_entries);
  for (std::uint32_t& x : d.xs) x = rng() % parent_entries;
  const std::uint32_t parent_words = table == 2 ? 1 : pos::metadata_words(k, table - 1);
  const int parent_bits = table == 2 ? 1 : pos::metadata_bits(k, table - 1);
  d.parent_metadata.resize(std::size_t(parent_entries) * parent_words);
  for (std::size_t i = 0; i < d.parent_metadata.size(); ++i) {
    const int bits = std::min(32, parent_bits - int(i % parent_words) * 32);
    d.parent_metadata[i] = bits >= 32 ? std::uint32_t(rng()) : std::uint32_t(rng()) & ((1u << bits) - 1);
  }
  d.pair_sizes.resize(pairs);
  for (std::uint32_t& size : d.pair_sizes) size = rng() % (per_pair + 1);
  d.pair_sizes[0] = per_pair;
  d.pair_sizes[1] = 0;
  d.ys.resize(count);
  d.parents.resize(2 * std::size_t(count));
  std::uint32_t left = 0;
  for (std::uint32_t b = 0; b < pairs; ++b) {
    for (std::uint32_t i = 0; i < d.pair_sizes[b]; ++i) {
      const std::uint32_t slot = b * per_pair + i;
      left += rng() % 3;  // in left order, a left entry's matches together
      std::uint32_t y = rng() % (top_y + 1);
      if (i % 4 == 1) y = d.ys[slot - 1];                    // the y of the match before
      if (i % 4 == 2 && b % 2 == 0) y = d.ys[b * per_pair];  // the y of the pair's first
      if (i % 16 == 3) y = top_y;                            // y at the top of its range
      d.ys[slot] = y;
      d.parents[2 * slot] = left;
      d.parents[2 * slot + 1] = 1000 + slot * 7919 % count;  // distinct, in any order
      d.sorted.push_back({y, left, d.parents[2 * slot + 1], slot});
    }
  }
  std::sort(d.sorted.begin(), d.sorted.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.y, a.left, a.right) < std::tie(b.y, b.left, b.right);
  });
  return d;
}

// The data on a device, and the steps that renumber it into a dense table of `room`.
struct DeviceTables {
  sprig::DeviceBuffer<std::uint32_t> ys, parents, pair_sizes, parent_ys, parent_metadata, xs, entries;
  sprig::DeviceBuffer<std::uint32_t> dense_ys, dense_parents, dense_metadata;

  DeviceTables(sprig::Device& dev, const SparseTableData& d, std::uint32_t room)
      : ys(dev.upload(d.ys)),
        parents(dev.upload(d.parents)),
        pair_sizes(dev.upload(d.pair_sizes)),
        parent_ys(dev.upload(d.parent_ys)),
        parent_metadata(dev.upload(d.parent_metadata)),
        xs(dev.upload(d.xs)),
        entries(dev.upload(std::vector<std::uint32_t>(8, 0))),
        dense_ys(dev.alloc<std::uint32_t>(room)),
        dense_parents(dev.alloc<std::uint32_t>(2 * std::size_t(room))),
        dense_metadata(dev.alloc<std::uint32_t>(std::size_t(room) * pos::metadata_words(d.k, d.table))) {}

  std::vector<pos::RecordStep> steps(sprig::Device& dev, const SparseTableData& d,
                                     const sprig::DeviceBuffer<std::uint32_t>& dense_parents_buffer) const {
    return pos::subspace_renumber_steps(dev, d.k, d.table, pos::SparseTable{ys, parents, pair_sizes},
                                        pos::ParentTable{parent_ys, parent_metadata, xs},
                                        pos::DenseTable{dense_ys, dense_parents_buffer, dense_metadata}, entries);
  }
};

}  // namespace

TEST_CASE("Subspace renumbering orders a sparse table by (y, left, right) within its room", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  for (int table : {2, 3, 4}) {
    const SparseTableData d = make_sparse_table(15, table, 9);
    const std::uint32_t words = pos::metadata_words(d.k, table);
    const auto total = std::uint32_t(d.sorted.size());
    for (std::uint32_t room : {total + 100, total}) {
      INFO("table " << table << ", room " << room << " for " << total << " entries");
      DeviceTables tables(dev, d, room);
      auto sequence = dev.sequence();
      for (const pos::RecordStep& step : tables.steps(dev, d, tables.dense_parents)) step(sequence);
      sequence.run_and_wait();

      REQUIRE(dev.download(tables.entries)[std::size_t(table)] == total);
      const std::vector<std::uint32_t> got_ys = dev.download(tables.dense_ys),
                                       got_parents = dev.download(tables.dense_parents),
                                       got_metadata = dev.download(tables.dense_metadata);
      for (std::size_t j = 0; j < room; ++j) {
        INFO("position " << j);
        if (j >= total) {
          REQUIRE(got_ys[j] == ~0u);
          continue;
        }
        const Entry& e = d.sorted[j];
        REQUIRE(got_ys[j] == e.y);
        REQUIRE(got_parents[2 * j] == e.left);
        REQUIRE(got_parents[2 * j + 1] == e.right);
        const std::vector<std::uint32_t> metadata = d.child_metadata(e);
        for (std::uint32_t w = 0; w < words; ++w) REQUIRE(got_metadata[j * words + w] == metadata[w]);
      }
    }
  }
}

TEST_CASE("Subspace renumbering into too little room counts every entry of the table", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const SparseTableData d = make_sparse_table(15, 2, 9);
  const auto total = std::uint32_t(d.sorted.size()), room = total - 300;
  DeviceTables tables(dev, d, room);
  auto sequence = dev.sequence();
  for (const pos::RecordStep& step : tables.steps(dev, d, tables.dense_parents)) step(sequence);
  sequence.run_and_wait();
  CHECK(dev.download(tables.entries)[2] == total);

  auto small_parents = dev.alloc<std::uint32_t>(room);
  auto refused = dev.sequence();
  const auto steps = tables.steps(dev, d, small_parents);
  REQUIRE_THROWS_WITH(steps.front()(refused), Catch::Contains("too small"));
}

TEST_CASE("Subspace tables start with room for their spread, at most their slots", "[pos]") {
  // 2^20 (1 + 8 deviations): table 2 about 1.011 x 2^20, table 6 about 1.18 x 2^20.
  CHECK(pos::subspace_table_room(20, 2) == 1060352);
  CHECK(pos::subspace_table_room(20, 6) == 1236544);
  for (int t = 3; t <= 6; ++t) CHECK(pos::subspace_table_room(20, t) > pos::subspace_table_room(20, t - 1));
  CHECK(pos::subspace_table_room(25, 2) < (1u << 25) + (1u << 25) / 256);
  for (int k = pos::min_k; k <= pos::max_subspace_k; ++k)
    for (int t = 2; t <= 6; ++t)
      CHECK(pos::subspace_table_room(k, t) <= pos::num_pairs(k) * pos::matches_per_pair(pos::Mode::Subspace));
  CHECK_THROWS_AS(pos::subspace_table_room(20, 7), std::out_of_range);
}
