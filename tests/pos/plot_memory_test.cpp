// The plotter's memory: a record's temporaries are transients that share memory by lifetime,
// in a workspace sized when the plotter is made, so plotting allocates nothing after that;
// plotters that share a workspace hold one record's scratch between them; each table's
// metadata is stored at its own width (Subspace's in words, Abundance's packed to its bits).
// Both rules, both backends.
#include <catch2/catch.hpp>

#include "pos_device_test_support.hpp"
#include "pos_reference.hpp"
#include "sprig/stdlib/pos/links.hpp"
#include "sprig/stdlib/pos/packed_entries.hpp"
#include "sprig/stdlib/pos/pos.hpp"
#include "backends.hpp"

namespace {

using pos_device_test::device_seed;
using pos_device_test::mode_of;
using pos_device_test::require_same_proofs;
using pos_device_test::seed_of;

}  // namespace

TEST_CASE("a record's transients share memory, in a workspace the plotter sized when made", "[pos][device][memory]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  for (pos_ref::Mode mode : {pos_ref::Mode::Abundance, pos_ref::Mode::Subspace}) {
    INFO(sprig::pos::mode_name(mode_of(mode)));
    sprig::pos::Plotter plotter(dev, 15, mode_of(mode));
    REQUIRE(plotter.record_scratch_bytes() > 0);
    REQUIRE(plotter.workspace().bytes() == plotter.record_scratch_bytes());
    REQUIRE(plotter.workspace().allocations() == 1);

    auto sequence = dev.sequence();
    plotter.record(sequence, device_seed(seed_of(7)));
    const sprig::MemoryPlan plan = sequence.memory_plan();
    std::uint64_t transients = 0;
    for (const sprig::PlannedBuffer& b : plan.buffers)
      if (b.transient && b.used) transients += b.bytes;
    // Tables 2..7 each have their own ys, metadata and buckets (and, under Abundance, parents);
    // at K = 15 the proofs of every s-bucket (7.5 MiB) are the largest, alive only at the end,
    // so sharing saves less than at larger K (a third of Abundance's 12.6 MiB).
    UNSCOPED_INFO("scratch " << plan.scratch_bytes << ", alive at once " << plan.live_transient_peak
                             << ", all transients " << transients);
    CHECK(plan.scratch_bytes * 10 < transients * 7);
    CHECK(plan.scratch_bytes * 8 <= plan.live_transient_peak * 9);  // the greedy placement wastes little
    CHECK(plan.scratch_bytes == plotter.record_scratch_bytes());
    sequence.run_and_wait();
    CHECK(plotter.workspace().allocations() == 1);  // the record needed nothing new
    require_same_proofs(plotter.result(),
                        pos_ref::create_proofs(pos_ref::build_tables(seed_of(7), 15, mode)));
  }
}

// First fit alone left a K = 20 record 3 MiB (5%) above the bytes alive at once; the
// planner's swaps of its best order close that (memory_plan.cpp). Recorded, not run.
TEST_CASE("a K = 20 Abundance record is placed in the bytes its transients keep alive at once, within 64 MiB", "[pos][memory]") {
  sprig::sim::Device sim;
  sprig::pos::Plotter plotter(sim, 20, sprig::pos::Mode::Abundance);
  auto sequence = sim.sequence();
  plotter.record(sequence, device_seed(seed_of(1)));
  const sprig::MemoryPlan plan = sequence.memory_plan();
  UNSCOPED_INFO("scratch " << plan.scratch_bytes << ", alive at once " << plan.live_transient_peak);
  CHECK(plan.scratch_bytes * 100 <= plan.live_transient_peak * 101);
  CHECK(plan.scratch_bytes == plotter.record_scratch_bytes());
  // The goal of 64 MiB a record in flight, with the 1 MiB of encoded chunks `sprig-plot` adds.
  CHECK(plotter.device_bytes() + (std::size_t(1) << 20) <= std::size_t(64) << 20);
}

// Above K = 21 the tables keep parent ranks and their buckets' positions (links.hpp): a
// K = 25 record, planned and not run, fits the goal of 2 GiB a record in flight (2,265 MiB
// with parent positions packed, 4,888 before any planning).
TEST_CASE("a K = 25 Abundance record keeps parent ranks, within 2 GiB", "[pos][memory]") {
  sprig::sim::Device sim;
  sprig::pos::Plotter plotter(sim, 25, sprig::pos::Mode::Abundance);
  UNSCOPED_INFO("device bytes " << plotter.device_bytes());
  CHECK(plotter.device_bytes() + (std::size_t(1) << 20) <= std::size_t(2048) << 20);
}

// Subspace's dense tables hold their room (about 2^K entries), not the sparse tables' 2.17 x
// 2^K slots, the renumbering sorts the compacted entries by y alone, and the sparse tables
// keep no metadata (the renumbering computes it again): records planned and not run fit
// the goals of 160 MiB at K = 20 (121.0; 234.7 before, 424 before any planning) and 4 GiB
// at K = 25 (3,817; 8,096 and 11,160).
TEST_CASE("Subspace records fit 160 MiB at K = 20 and 4 GiB at K = 25", "[pos][memory]") {
  sprig::sim::Device sim;
  sprig::pos::Plotter k20(sim, 20, sprig::pos::Mode::Subspace);
  UNSCOPED_INFO("K = 20: device bytes " << k20.device_bytes());
  CHECK(k20.device_bytes() <= std::size_t(160) << 20);
  sprig::pos::Plotter k25(sim, 25, sprig::pos::Mode::Subspace);
  UNSCOPED_INFO("K = 25: device bytes " << k25.device_bytes());
  CHECK(k25.device_bytes() <= std::size_t(4096) << 20);
}

TEST_CASE("plotters that share a workspace hold one record's scratch between them", "[pos][device][memory]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::PlotterOptions options;
  sprig::pos::Plotter first(dev, 15, sprig::pos::Mode::Abundance, options);
  sprig::pos::Plotter second(dev, 15, sprig::pos::Mode::Abundance, options);
  REQUIRE(options.workspace.bytes() == first.record_scratch_bytes());
  REQUIRE(options.workspace.allocations() == 1);  // the second plotter found room
  // One record each, in sequences of their own: one after another, in the same memory.
  auto a = dev.sequence();
  auto b = dev.sequence();
  first.record(a, device_seed(seed_of(8)));
  second.record(b, device_seed(seed_of(9)));
  a.submit();
  b.submit();
  a.wait();
  b.wait();
  CHECK(options.workspace.allocations() == 1);
  require_same_proofs(first.result(), pos_ref::create_proofs(pos_ref::build_tables(seed_of(8), 15, pos_ref::Mode::Abundance)));
  require_same_proofs(second.result(), pos_ref::create_proofs(pos_ref::build_tables(seed_of(9), 15, pos_ref::Mode::Abundance)));
  // Interleaved in one sequence, the records are alive together: the workspace grows to hold both.
  auto both = dev.sequence();
  sprig::pos::record_interleaved(both, {&first, &second}, {device_seed(seed_of(8)), device_seed(seed_of(9))});
  CHECK(both.memory_plan().scratch_bytes > first.record_scratch_bytes());
  both.run_and_wait();
  require_same_proofs(first.result(), pos_ref::create_proofs(pos_ref::build_tables(seed_of(8), 15, pos_ref::Mode::Abundance)));
  require_same_proofs(second.result(), pos_ref::create_proofs(pos_ref::build_tables(seed_of(9), 15, pos_ref::Mode::Abundance)));
}

TEST_CASE("each table's metadata is stored at its own width", "[pos]") {
  // K times Chia's {1, 2, 4, 4, 3, 2, 0} bits for tables 1..7, in whole words.
  CHECK(sprig::pos::metadata_words(20, 2) == 2);
  CHECK(sprig::pos::metadata_words(20, 3) == 3);
  CHECK(sprig::pos::metadata_words(20, 4) == 3);
  CHECK(sprig::pos::metadata_words(20, 5) == 2);
  CHECK(sprig::pos::metadata_words(20, 6) == 2);
  CHECK(sprig::pos::metadata_words(20, 7) == 0);
  CHECK(sprig::pos::metadata_words(25, 3) == 4);  // 100 bits
  CHECK(sprig::pos::metadata_words(16, 2) == 1);
}

// Packed entries (packed_entries.hpp) stored as the plotting kernels store them (a
// workgroup per group zeroes its shared words of a buffer full of ones, then its
// invocations store the entries in a scrambled order) read back as stored, and the words
// are the entries' bits laid end to end from each group's first word, least significant
// first. The layouts: pairs of 288 entries at K = 15's and 25's widths of two positions (32
// and 52 bits), parent ranks (18), K = 20's metadata of tables 2, 5 and 3 (40, 60, 80) and
// K = 25's of table 3 (100); buckets of 272 positions at K = 25 (26 bits: whole words),
// K = 24 (25 bits: a padded last word only the last entry reaches) and 5 bits (a padded
// last word the last entry starts in). Every shift of an entry within its first word, and
// entries over 1 to 5 words.
TEST_CASE("packed entries round-trip at every width and shift", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  using namespace sprig;
  const std::uint32_t groups = 3;
  const std::vector<pos::PackedLayout> layouts{
      pos::PackedLayout(32), pos::PackedLayout(52), pos::PackedLayout(pos::parent_rank_bits),
      pos::PackedLayout(unsigned(pos::metadata_bits(20, 2))), pos::PackedLayout(unsigned(pos::metadata_bits(20, 5))),
      pos::PackedLayout(unsigned(pos::metadata_bits(20, 3))), pos::PackedLayout(unsigned(pos::metadata_bits(25, 3))),
      pos::bucket_position_layout(25), pos::bucket_position_layout(24), pos::PackedLayout(5, 272)};
  CHECK_FALSE(layouts[7].padded());
  CHECK((layouts[8].padded() && layouts[8].zero_last_word()));
  CHECK((layouts[9].padded() && !layouts[9].zero_last_word()));
  for (const pos::PackedLayout layout : layouts) {
    const unsigned bits = layout.bits;
    const std::uint32_t per_group = layout.group, count = groups * per_group;
    INFO(bits << " bits in groups of " << per_group);
    std::vector<std::uint32_t> values(std::size_t(count) * 4, 0), order(per_group);
    std::uint64_t state = 0x9e3779b97f4a7c15ull * bits + per_group;
    for (std::uint32_t i = 0; i < count; ++i)
      for (std::uint32_t w = 0; w * 32 < bits; ++w) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const std::uint32_t width = std::min(32u, bits - w * 32);
        values[i * 4 + w] = std::uint32_t(state >> 32) & (width == 32 ? ~0u : (1u << width) - 1u);
      }
    for (std::uint32_t i = 0; i < per_group; ++i) order[i] = (i * 97u + 13u) % per_group;  // 97 is prime to 288 and 272
    auto store = kernel("packed_entries_store", [=](ReadBuffer<std::uint32_t> in, ReadBuffer<std::uint32_t> order_in_group,
                                                    Buffer<std::uint32_t> packed) {
      UInt group = workgroup_id().x(), t = local_index();
      pos::detail::zero_shared_words(packed, layout, group, t, 64);
      barrier();
      for_(t, UInt(per_group), 64u, [&](UInt i) {
        UInt p = group * per_group + order_in_group[i];
        pos::Wide v{in[p * 4u].load(), in[p * 4u + 1u].load(), in[p * 4u + 2u].load(), in[p * 4u + 3u].load()};
        pos::detail::store_packed(packed, layout, p, v);
      });
    }, workgroup(64));
    auto load = kernel("packed_entries_load", [=](ReadBuffer<std::uint32_t> packed, WriteBuffer<std::uint32_t> out) {
      UInt p = global_id().x();
      if_(p < out.size() / 4u, [&] {
        pos::Wide v = pos::detail::load_packed(packed, layout, p);
        for (std::uint32_t w = 0; w < 4; ++w) out[p * 4u + w] = v[w];
      });
    }, workgroup(64));
    auto packed = dev.alloc<std::uint32_t>(std::size_t(groups) * layout.group_words());
    auto loaded = dev.alloc<std::uint32_t>(values.size());
    auto sequence = dev.sequence();
    sequence.fill(packed, ~0u);
    sequence.run(store, grid(groups * 64), dev.upload(values), dev.upload(order), packed);
    sequence.run(load, grid(count), packed, loaded);
    sequence.run_and_wait();
    CHECK(dev.download(loaded) == values);
    std::vector<std::uint32_t> expected(packed.size(), 0);
    for (std::uint32_t i = 0; i < count; ++i)
      for (std::uint32_t bit = 0; bit < bits; ++bit)
        if ((values[i * 4 + bit / 32] >> (bit % 32)) & 1u) {
          const std::uint64_t at =
              std::uint64_t(i / per_group) * layout.group_words() * 32 + std::uint64_t(i % per_group) * bits + bit;
          expected[at / 32] |= 1u << (at % 32);
        }
    const std::vector<std::uint32_t> words = dev.download(packed);
    CHECK(words == expected);  // a padded word's spare bits zeroed too
    for (std::uint32_t i = 0; i < count && bits <= 64; ++i) {
      const std::uint64_t value = std::uint64_t(values[i * 4 + 1]) << 32 | values[i * 4];
      REQUIRE(pos::unpack_entry(words, layout, i) == value);
    }
  }
  CHECK(pos::packed_words(20, unsigned(pos::metadata_bits(20, 3))) == std::size_t(4440) * 720);  // 10 bytes an entry
  CHECK(pos::packed_words(20, unsigned(pos::metadata_bits(20, 7))) == 1);
  CHECK(pos::parent_position_bits(25) == 26);  // 142,123 pairs of 288
  CHECK(pos::parent_position_bits(15) == 16);
  CHECK(pos::bucket_position_layout(25).group_words() == 221);  // 272 x 26 bits
  CHECK(pos::bucket_position_layout(24).group_words() == 213);  // 272 x 25 bits, padded
}

// A child's parent ranks (links.hpp) round-trip on the device at K = 25's last pair and the
// largest ranks: they name the slots (b, i) and (b + 1, j) of the child's pair b, and sit as
// 18 bits, the left rank low, at the child's position.
TEST_CASE("a child's parent ranks name its pair's bucket slots", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  using namespace sprig;
  const std::uint32_t per_pair = pos::matches_per_pair(pos::Mode::Abundance);
  const std::uint32_t capacity = pos::bucket_capacity(pos::Mode::Abundance), last_pair = pos::num_pairs(25) - 1;
  // (position, left rank, right rank): the first and last slots of the first, second and
  // last pairs.
  const std::vector<std::uint32_t> positions{0, per_pair + 1, per_pair * 2 - 1, last_pair * per_pair,
                                             last_pair * per_pair + per_pair - 1},
      lefts{0, 271, 5, 271, 1}, rights{271, 0, 7, 271, 270};
  auto store = kernel("ranks_store", [=](ReadBuffer<std::uint32_t> position, ReadBuffer<std::uint32_t> left,
                                         ReadBuffer<std::uint32_t> right, Buffer<std::uint32_t> ranks) {
    UInt i = global_id().x();
    if_(i < position.size(), [&] { pos::detail::store_ranks(ranks, position[i], left[i], right[i]); });
  }, workgroup(64));
  auto load = kernel("ranks_load", [](ReadBuffer<std::uint32_t> ranks, ReadBuffer<std::uint32_t> position,
                                      WriteBuffer<std::uint32_t> slots) {
    UInt i = global_id().x();
    if_(i < position.size(), [&] {
      pos::detail::LinkedSlots s = pos::detail::load_ranks(ranks, position[i]);
      slots[i * 2u] = s.left;
      slots[i * 2u + 1u] = s.right;
    });
  }, workgroup(64));
  auto ranks = dev.alloc<std::uint32_t>(pos::packed_words(25, pos::parent_rank_bits));
  auto slots = dev.alloc<std::uint32_t>(positions.size() * 2);
  auto position_buffer = dev.upload(positions);
  auto sequence = dev.sequence();
  sequence.fill(ranks, 0);  // every word zero: the stores need no zeroing of their own
  sequence.run(store, grid(positions.size()), position_buffer, dev.upload(lefts), dev.upload(rights), ranks);
  sequence.run(load, grid(positions.size()), ranks, position_buffer, slots);
  sequence.run_and_wait();
  const std::vector<std::uint32_t> got = dev.download(slots), words = dev.download(ranks);
  for (std::size_t i = 0; i < positions.size(); ++i) {
    INFO("position " << positions[i]);
    const std::uint32_t pair = positions[i] / per_pair;
    CHECK(got[2 * i] == pair * capacity + lefts[i]);
    CHECK(got[2 * i + 1] == (pair + 1) * capacity + rights[i]);
    CHECK(pos::unpack_entry(words, pos::parent_rank_bits, positions[i]) == (rights[i] << 9 | lefts[i]));
  }
}

// A link names two bucket slots in one word while the pair index fits in 14 bits (K <= 21):
// it round-trips on the device at K = 21's largest pair index and ranks.
TEST_CASE("Abundance's links round-trip in one word up to K = 21", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  using namespace sprig;
  CHECK(pos::links_fit(20));
  CHECK(pos::links_fit(21));
  CHECK_FALSE(pos::links_fit(22));
  CHECK(pos::parent_layout(20, pos::Mode::Abundance) == pos::ParentLayout::Links);
  CHECK(pos::parent_layout(21, pos::Mode::Abundance) == pos::ParentLayout::Links);
  CHECK(pos::parent_layout(22, pos::Mode::Abundance) == pos::ParentLayout::Ranks);
  CHECK(pos::parent_layout(20, pos::Mode::Abundance, pos::ParentLayout::Ranks) == pos::ParentLayout::Ranks);
  CHECK(pos::parent_layout(20, pos::Mode::Subspace) == pos::ParentLayout::Positions);
  CHECK_THROWS_WITH(pos::parent_layout(22, pos::Mode::Abundance, pos::ParentLayout::Links),
                    Catch::Contains("parents as links are Abundance's, up to K = 21 (K = 22)"));
  CHECK_THROWS_WITH(pos::parent_layout(20, pos::Mode::Abundance, pos::ParentLayout::Positions),
                    Catch::Contains("Abundance keeps its parents as links or ranks"));
  CHECK_THROWS_WITH(pos::parent_layout(20, pos::Mode::Subspace, pos::ParentLayout::Ranks),
                    Catch::Contains("Subspace keeps positions"));
  const int k = 21;
  const std::uint32_t capacity = pos::bucket_capacity(pos::Mode::Abundance), last_pair = pos::num_pairs(k) - 1;
  // (pair, left rank, right rank) of each link, stored at position 2 * i + 1.
  const std::vector<std::uint32_t> pairs{0, 1, last_pair, last_pair}, lefts{0, 271, 5, 271}, rights{271, 0, 7, 271};
  auto store = kernel("links_store", [](ReadBuffer<std::uint32_t> pair, ReadBuffer<std::uint32_t> left,
                                        ReadBuffer<std::uint32_t> right, Buffer<std::uint32_t> links) {
    UInt i = global_id().x();
    if_(i < pair.size(), [&] { pos::detail::store_link(links, k, i * 2u + 1u, pair[i], left[i], right[i]); });
  }, workgroup(64));
  auto load = kernel("links_load", [](ReadBuffer<std::uint32_t> links, WriteBuffer<std::uint32_t> slots, UInt count) {
    UInt i = global_id().x();
    if_(i < count, [&] {
      pos::detail::LinkedSlots s = pos::detail::load_link(links, k, i * 2u + 1u);
      slots[i * 2u] = s.left;
      slots[i * 2u + 1u] = s.right;
    });
  }, workgroup(64));
  auto links = dev.alloc<std::uint32_t>(8);
  auto slots = dev.alloc<std::uint32_t>(8);
  auto sequence = dev.sequence();
  sequence.fill(links, 0);
  sequence.run(store, grid(4), dev.upload(pairs), dev.upload(lefts), dev.upload(rights), links);
  sequence.run(load, grid(4), links, slots, 4u);
  sequence.run_and_wait();
  const std::vector<std::uint32_t> got = dev.download(slots);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    CHECK(got[2 * i] == pairs[i] * capacity + lefts[i]);
    CHECK(got[2 * i + 1] == (pairs[i] + 1) * capacity + rights[i]);
  }
}

// Above K = 21 Abundance's tables keep parent ranks: the same plots at K = 15 and 16 that way.
TEST_CASE("an Abundance plot with parent ranks equals the reference", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::PlotterOptions ranks;
  ranks.parents = sprig::pos::ParentLayout::Ranks;
  for (int k : {15, 16}) {
    INFO("K = " << k);
    sprig::pos::Plotter plotter(dev, k, sprig::pos::Mode::Abundance, ranks);
    require_same_proofs(plotter.plot(device_seed(seed_of(3))),
                        pos_ref::create_proofs(pos_ref::build_tables(seed_of(3), k, pos_ref::Mode::Abundance)));
  }
  sprig::pos::PlotterOptions links;
  links.parents = sprig::pos::ParentLayout::Links;
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 22, sprig::pos::Mode::Abundance, links),
                      Catch::Contains("parents as links are Abundance's, up to K = 21"));
}

// K = 28 keeps tables 3 and 4's metadata in two buffers (more than a binding holds): the same
// split at K = 15 and 16 with parent ranks as at K = 28 (and at K = 15 with links), every
// table's metadata in two.
TEST_CASE("an Abundance plot with its metadata in two buffers equals the reference", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  for (auto parents : {sprig::pos::ParentLayout::Ranks, sprig::pos::ParentLayout::Links}) {
    sprig::pos::PlotterOptions split;
    split.metadata_in_two_buffers = true;
    split.parents = parents;
    for (int k : parents == sprig::pos::ParentLayout::Ranks ? std::vector<int>{15, 16} : std::vector<int>{15}) {
      INFO("K = " << k << (parents == sprig::pos::ParentLayout::Ranks ? ", ranks" : ", links"));
      sprig::pos::Plotter plotter(dev, k, sprig::pos::Mode::Abundance, split);
      require_same_proofs(plotter.plot(device_seed(seed_of(5))),
                          pos_ref::create_proofs(pos_ref::build_tables(seed_of(5), k, pos_ref::Mode::Abundance)));
    }
  }
  sprig::pos::PlotterOptions subspace;
  subspace.metadata_in_two_buffers = true;
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 15, sprig::pos::Mode::Subspace, subspace),
                      Catch::Contains("metadata_in_two_buffers is for Abundance's rules"));
  // K = 28's rule: two buffers only where one cannot hold the table.
  REQUIRE(sprig::pos::packed_split_pairs(28, unsigned(sprig::pos::metadata_bits(28, 3))) ==
          (sprig::pos::num_pairs(28) + 1) / 2);
  REQUIRE(sprig::pos::packed_split_pairs(28, unsigned(sprig::pos::metadata_bits(28, 5))) == 0);
  REQUIRE(sprig::pos::packed_split_pairs(27, unsigned(sprig::pos::metadata_bits(27, 3))) == 0);
}
