// The device plotter under Subspace's rules (subspace.hpp) against the CPU reference: whole
// PlotResults at K = 15 and 16, find_proof for any challenge index, the published K = 20
// proofs, and the simulator's analyses of the renumbering.
#include <algorithm>
#include <optional>

#include <catch2/catch.hpp>

#include "backends.hpp"
#include "pos_device_test_support.hpp"
#include "pos_reference.hpp"
#include "pos_test_support.hpp"
#include "sprig/simulator/device.hpp"
#include "sprig/stdlib/pos/pos.hpp"

using sprig::test::Backend;
using pos_device_test::device_seed;
using pos_device_test::require_same_proofs;
using pos_device_test::seed_of;

TEST_CASE("Subspace device plot equals the reference at K = 15, tables and proofs", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::Plotter plotter(dev, 15, sprig::pos::Mode::Subspace);
  for (std::uint32_t i : {0u, 1u}) {
    INFO("seed " << i);
    const pos_ref::Tables tables = pos_ref::build_tables(seed_of(i), 15, pos_ref::Mode::Subspace);
    require_same_proofs(plotter.plot(device_seed(seed_of(i))), pos_ref::create_proofs(tables));
    // Dense (y, left, right) numbering: every table's parent pairs equal the reference's.
    for (int t = 2; t <= 6; ++t) {
      INFO("table " << t);
      std::vector<std::uint32_t> parents = dev.download(plotter.parents(t));
      const auto& expected = tables.table[std::size_t(t)].parents;
      for (std::size_t p = 0; p < expected.size(); ++p) {
        if (parents[2 * p] != expected[p][0] || parents[2 * p + 1] != expected[p][1]) {
          FAIL("position " << p << ": [" << parents[2 * p] << ", " << parents[2 * p + 1] << "], expected ["
                           << expected[p][0] << ", " << expected[p][1] << "]");
        }
      }
    }
  }
}

// Tables that outgrow their room: a plotter that starts every table with room for half of
// 2^K entries loses entries in each, grows, plots the record again, and keeps the room.
TEST_CASE("a Subspace record whose tables outgrow their room is plotted again with more", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::PlotterOptions options;
  options.subspace_room = 0.5;
  sprig::pos::Plotter plotter(dev, 15, sprig::pos::Mode::Subspace, options);
  const std::size_t small_bytes = plotter.device_bytes();
  for (int t = 2; t <= 6; ++t) REQUIRE(plotter.room(t) == 1u << 14);
  const pos_ref::Tables tables = pos_ref::build_tables(seed_of(6), 15, pos_ref::Mode::Subspace);
  auto sequence = dev.sequence();
  plotter.record(sequence, device_seed(seed_of(6)));
  sequence.run_and_wait();
  require_same_proofs(plotter.result(), pos_ref::create_proofs(tables));
  for (int t = 2; t <= 6; ++t) {
    INFO("table " << t);
    const std::uint64_t entries = tables.table[std::size_t(t)].entries;
    CHECK(plotter.room(t) >= entries);
    CHECK(plotter.room(t) <= entries + entries / 8 + 64);
    const std::vector<std::uint32_t> parents = dev.download(plotter.parents(t));
    const auto& expected = tables.table[std::size_t(t)].parents;
    for (std::size_t p = 0; p < expected.size(); ++p)
      if (parents[2 * p] != expected[p][0] || parents[2 * p + 1] != expected[p][1]) FAIL("position " << p);
  }
  CHECK(plotter.device_bytes() > small_bytes);
  CHECK(plotter.records_plotted_again() >= 1);
  // The room stays: the next record still equals the reference.
  require_same_proofs(plotter.plot(device_seed(seed_of(7))),
                      pos_ref::create_proofs(pos_ref::build_tables(seed_of(7), 15, pos_ref::Mode::Subspace)));
  // A plotter with the default room plots a record once.
  sprig::pos::Plotter roomy(dev, 15, sprig::pos::Mode::Subspace);
  roomy.plot(device_seed(seed_of(6)));
  CHECK(roomy.records_plotted_again() == 0);

  sprig::pos::PlotterOptions wrong;
  wrong.subspace_room = -1;
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 15, sprig::pos::Mode::Subspace, wrong),
                      Catch::Contains("subspace_room"));
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 15, sprig::pos::Mode::Abundance, options),
                      Catch::Contains("not Abundance's"));
  REQUIRE_THROWS_WITH(plotter.room(7), Catch::Contains("tables 2..6"));
  REQUIRE_THROWS_WITH(plotter.parents(7), Catch::Contains("table 7's are in its proof targets' keys"));
}

TEST_CASE("Subspace device find_proofs equals the reference for any challenge index", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::Plotter plotter(dev, 16, sprig::pos::Mode::Subspace);
  const pos_ref::Tables tables = pos_ref::build_tables(seed_of(2), 16, pos_ref::Mode::Subspace);
  plotter.plot(device_seed(seed_of(2)));
  std::vector<std::uint32_t> challenges{0, 1, 77, 650, 1011, 65535, 65536, 600426542, 1232460437, 0xffffffffu};
  for (std::uint32_t i = 0; i < 40; ++i) challenges.push_back(i * 2654435761u);
  const auto found = plotter.find_proofs(challenges);
  REQUIRE(found.size() == challenges.size());
  std::size_t with_proof = 0;
  for (std::size_t i = 0; i < challenges.size(); ++i) {
    INFO("challenge index " << challenges[i]);
    const auto expected = pos_ref::subspace_find_proof(tables, challenges[i]);
    REQUIRE(found[i].has_value() == expected.has_value());
    if (expected) {
      REQUIRE(*found[i] == *expected);
      ++with_proof;
    }
  }
  CHECK(with_proof > 10);  // the test exercises both outcomes
  CHECK(with_proof < challenges.size());
}

TEST_CASE("Subspace device find_proofs gives the published K = 20 proofs", "[pos][device][slow]") {
  sprig::Device& dev = sprig::test::device(Backend::Vulkan);
  sprig::pos::Plotter plotter(dev, 20, sprig::pos::Mode::Subspace);
  plotter.plot(device_seed(pos_test::subspace_test_seed));
  const auto found = plotter.find_proofs({600426542, 1011, 650, 1232460437});
  REQUIRE(found[0].has_value());
  CHECK(pos_test::hex(*found[0]) == pos_test::subspace_proof_600426542);
  REQUIRE(found[1].has_value());
  CHECK(pos_test::hex(*found[1]) == pos_test::subspace_proof_1011);
  REQUIRE(found[2].has_value());
  CHECK(pos_test::hex(*found[2]) == pos_test::subspace_proof_650);
  CHECK_FALSE(found[3].has_value());
}

TEST_CASE("Subspace plotting runs clean under the simulator's analyses at K = 15", "[pos][device]") {
  sprig::sim::Device& sim = sprig::test::simulator();
  sim.clear_report();
  sprig::pos::Plotter plotter(sim, 15, sprig::pos::Mode::Subspace);
  plotter.plot(device_seed(seed_of(3)));
  const sprig::sim::Report report = sim.report();
  REQUIRE(report.errors.empty());
  REQUIRE(report.races.empty());
  REQUIRE(report.clean());
}

// Plotters of different rules have different numbers of steps; interleaved, each still
// runs all of its own.
TEST_CASE("records interleaved under both rules equal each plotted alone", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::Plotter abundance(dev, 15), subspace(dev, 15, sprig::pos::Mode::Subspace);
  const sprig::pos::PlotResult alone_a = abundance.plot(device_seed(seed_of(4)));
  const sprig::pos::PlotResult alone_s = subspace.plot(device_seed(seed_of(5)));
  auto sequence = dev.sequence();
  sprig::pos::record_interleaved(sequence, {&abundance, &subspace}, {device_seed(seed_of(4)), device_seed(seed_of(5))});
  sequence.run_and_wait();
  const sprig::pos::PlotResult together_a = abundance.result(), together_s = subspace.result();
  REQUIRE(together_a.s_buckets == alone_a.s_buckets);
  REQUIRE(together_a.proofs == alone_a.proofs);
  REQUIRE(together_s.s_buckets == alone_s.s_buckets);
  REQUIRE(together_s.proofs == alone_s.proofs);
  REQUIRE_THROWS_WITH(sprig::pos::record_interleaved(sequence, {&abundance}, {}), Catch::Contains("one seed per plotter"));
}

TEST_CASE("find_proofs is Subspace's and says so under Abundance's rules", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::Plotter plotter(dev, 15);
  REQUIRE_THROWS_WITH(plotter.find_proofs({1}), Catch::Contains("Mode::Subspace"));
}
