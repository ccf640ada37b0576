// Subspace's renumbering (stdlib/include/sprig/stdlib/pos/subspace.hpp) against a CPU sort
// by (y, left, right): holes, full and empty pairs, and runs of equal (y, left) whose rights
// come in every order, which a plot almost never has (two matches of one left entry whose
// 21-bit ys collide) but the order must still break by right.
#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/stdlib/pos/subspace.hpp"
#include "backends.hpp"

namespace {

namespace pos = sprig::pos;

struct Entry {
  std::uint32_t y, left, right, slot;
};

}  // namespace

TEST_CASE("Subspace renumbering orders a sparse table by (y, left, right), ties in (y, left) by right",
          "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const int k = 15, table = 3;
  const std::uint32_t per_pair = pos::matches_per_pair(pos::Mode::Subspace), pairs = 9;
  const std::uint32_t count = pairs * per_pair, words = pos::metadata_words(k, table);
  std::mt19937 rng(31);
  std::vector<std::uint32_t> pair_sizes(pairs);
  for (std::uint32_t& size : pair_sizes) size = rng() % (per_pair + 1);
  pair_sizes[0] = per_pair;
  pair_sizes[1] = 0;
  std::vector<std::uint32_t> ys(count), parents(2 * std::size_t(count)), metadata(std::size_t(count) * words);
  for (std::uint32_t& w : metadata) w = rng();
  std::vector<Entry> entries;
  for (std::uint32_t b = 0; b < pairs; ++b) {
    for (std::uint32_t i = 0; i < pair_sizes[b]; ++i) {
      const std::uint32_t slot = b * per_pair + i;
      // Every fourth slot repeats the (y, left) of the slot before it, with a smaller right
      // (runs of up to 5 whose rights descend); the others are random.
      const bool repeat = i % 4 != 0;
      ys[slot] = repeat ? ys[slot - 1] : rng() % (1u << pos::y_bits(k));
      parents[2 * slot] = repeat ? parents[2 * slot - 2] : rng() % (1u << (k + 2));
      parents[2 * slot + 1] = repeat ? parents[2 * slot - 1] - 1 - rng() % 3 : 1000 + rng() % (1u << (k + 1));
      entries.push_back({ys[slot], parents[2 * slot], parents[2 * slot + 1], slot});
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) {
              return std::tie(a.y, a.left, a.right) < std::tie(b.y, b.left, b.right);
            });

  auto sparse_ys = dev.upload(ys), sparse_parents = dev.upload(parents), sparse_metadata = dev.upload(metadata);
  auto sizes = dev.upload(pair_sizes);
  auto dense_ys = dev.alloc<std::uint32_t>(count), dense_parents = dev.alloc<std::uint32_t>(2 * std::size_t(count));
  auto dense_metadata = dev.alloc<std::uint32_t>(std::size_t(count) * words);
  auto sequence = dev.sequence();
  for (const pos::RecordStep& step :
       pos::subspace_renumber_steps(dev, k, table, pos::SparseTable{sparse_ys, sparse_parents, sparse_metadata, sizes},
                                    pos::DenseTable{dense_ys, dense_parents, dense_metadata}, count))
    step(sequence);
  sequence.run_and_wait();

  const std::vector<std::uint32_t> got_ys = dev.download(dense_ys), got_parents = dev.download(dense_parents),
                                   got_metadata = dev.download(dense_metadata);
  for (std::size_t j = 0; j < count; ++j) {
    INFO("position " << j << " of " << entries.size() << " entries");
    if (j >= entries.size()) {
      REQUIRE(got_ys[j] == ~0u);
      continue;
    }
    const Entry& e = entries[j];
    REQUIRE(got_ys[j] == e.y);
    REQUIRE(got_parents[2 * j] == e.left);
    REQUIRE(got_parents[2 * j + 1] == e.right);
    for (std::uint32_t w = 0; w < words; ++w)
      REQUIRE(got_metadata[j * words + w] == metadata[std::size_t(e.slot) * words + w]);
  }
}
