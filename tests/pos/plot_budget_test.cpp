// Plotting under a memory budget: a plotter whose budget is smaller than a record needs
// spills the record's least-touched transients to host memory (docs/memory.md) and plots the
// same proofs, holding no more device memory than the budget; a budget below what the
// plotter keeps is refused when it is made. Both rules, both backends; the goal sizes
// (K = 20 and 25 under a quarter of their memory) are planned on the simulator, not run.
#include <catch2/catch.hpp>

#include "pos_device_test_support.hpp"
#include "pos_reference.hpp"
#include "sprig/stdlib/pos/pos.hpp"
#include "backends.hpp"

namespace {

using pos_device_test::device_seed;
using pos_device_test::mode_of;
using pos_device_test::require_same_proofs;
using pos_device_test::seed_of;

sprig::pos::PlotterOptions with_budget(std::uint64_t bytes) {
  sprig::pos::PlotterOptions options;
  options.memory_budget = bytes;
  return options;
}

}  // namespace

TEST_CASE("a plotter under a quarter of its record's scratch spills to host memory and plots the same proofs",
          "[pos][device][memory]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  for (pos_ref::Mode mode : {pos_ref::Mode::Abundance, pos_ref::Mode::Subspace}) {
    INFO(sprig::pos::mode_name(mode_of(mode)));
    const sprig::pos::Plotter free(dev, 15, mode_of(mode));
    REQUIRE(free.record_plan().host_scratch_bytes == 0);
    const pos_ref::PosProofs expected = pos_ref::create_proofs(pos_ref::build_tables(seed_of(11), 15, mode));
    // At K = 15 the kept proofs of 2^15 s-buckets outweigh the tables, so the budget is
    // what the plotter keeps and a quarter of its scratch, then none of it.
    for (std::uint64_t scratch : {free.record_scratch_bytes() / 4, std::uint64_t(0)}) {
      INFO("device scratch allowed: " << scratch);
      const std::uint64_t budget = free.kept_bytes() + scratch;
      dev.reset_peak_memory();
      const std::uint64_t before = dev.memory_usage().in_use_bytes;
      sprig::pos::Plotter plotter(dev, 15, mode_of(mode), with_budget(budget));
      const sprig::MemoryPlan& plan = plotter.record_plan();
      CHECK(plotter.kept_bytes() + plan.scratch_bytes <= budget);
      CHECK(plan.host_scratch_bytes > 0);
      CHECK(plotter.workspace().bytes() == plan.scratch_bytes);
      CHECK(plotter.workspace().host_bytes() == plan.host_scratch_bytes);
      require_same_proofs(plotter.plot(device_seed(seed_of(11))), expected);
      // The device's ledger saw no more than the budget.
      CHECK(dev.memory_usage().peak_bytes - before <= budget);
    }
  }
}

TEST_CASE("a plotter's budget below the buffers it keeps is refused when it is made", "[pos][device][memory]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const std::uint64_t kept = sprig::pos::Plotter(dev, 15, sprig::pos::Mode::Abundance).kept_bytes();
  try {
    sprig::pos::Plotter plotter(dev, 15, sprig::pos::Mode::Abundance, with_budget(kept - 4096));
    FAIL("the budget should have been refused");
  } catch (const sprig::MemoryBudgetExceeded& e) {
    CHECK(e.allowed() == kept - 4096);
    CHECK_THAT(std::string(e.what()), Catch::Contains("pos::Plotter: K = 15 (Abundance) keeps") &&
                                          Catch::Contains("more than its memory budget") &&
                                          Catch::Contains("a record's temporaries could all go to host memory"));
  }
}

// The goal: under a quarter of what a record uses unconstrained, at the sizes the memory
// goals name. Planned on the simulator, not run (the budgeted plots above run the kernels).
TEST_CASE("K = 20 and K = 25 records plan within a quarter of their unconstrained memory", "[pos][memory]") {
  sprig::sim::Device sim;
  for (auto [k, mode] : {std::pair{20, sprig::pos::Mode::Abundance}, std::pair{20, sprig::pos::Mode::Subspace},
                         std::pair{25, sprig::pos::Mode::Abundance}}) {
    INFO("K = " << k << ", " << sprig::pos::mode_name(mode));
    const sprig::pos::Plotter free(sim, k, mode);
    const std::uint64_t unconstrained = free.kept_bytes() + free.record_scratch_bytes();
    sprig::pos::Plotter plotter(sim, k, mode, with_budget(unconstrained / 4));
    const sprig::MemoryPlan& plan = plotter.record_plan();
    UNSCOPED_INFO("unconstrained " << unconstrained << ", now " << plotter.kept_bytes() << " + "
                                   << plan.scratch_bytes << " + host " << plan.host_scratch_bytes);
    CHECK(plotter.kept_bytes() + plan.scratch_bytes <= unconstrained / 4);
    CHECK(plan.host_scratch_bytes > 0);
  }
}

// Subspace keeps its tables' parents, table 1's xs and the proof targets for find_proofs
// after the record; a budget without room for them beside the rest puts them in host memory.
TEST_CASE("Subspace's kept tables go to host memory under a budget without room for them, and find the same proofs",
          "[pos][device][memory]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  sprig::pos::Plotter free(dev, 15, sprig::pos::Mode::Subspace);
  const sprig::MemoryPlan& unconstrained = free.record_plan();
  std::uint64_t kept_tables = 0;
  for (const sprig::PlannedBuffer& b : unconstrained.buffers)
    if (b.name == "plotter kept parents" || b.name == "plotter table 1 xs" || b.name == "plotter Subspace targets")
      kept_tables += b.bytes;
  REQUIRE(kept_tables > 0);
  const std::uint64_t budget = free.kept_bytes() - kept_tables + free.record_scratch_bytes() / 4;
  sprig::pos::Plotter tight(dev, 15, sprig::pos::Mode::Subspace, with_budget(budget));
  const sprig::MemoryPlan& plan = tight.record_plan();
  CHECK(tight.kept_bytes() + plan.scratch_bytes <= budget);
  for (const sprig::PlannedBuffer& b : plan.buffers)
    if (b.name == "plotter kept parents" || b.name == "plotter Subspace targets") CHECK(b.host);
  CHECK(tight.device_bytes() + kept_tables <= free.device_bytes());

  const pos_ref::Seed seed = seed_of(12);
  require_same_proofs(tight.plot(device_seed(seed)),
                      pos_ref::create_proofs(pos_ref::build_tables(seed, 15, pos_ref::Mode::Subspace)));
  (void)free.plot(device_seed(seed));
  std::vector<std::uint32_t> challenges;
  for (std::uint32_t c = 0; c < 256; ++c) challenges.push_back(c * 97u);
  CHECK(tight.find_proofs(challenges) == free.find_proofs(challenges));
}

TEST_CASE("records of budgeted plotters interleaved in one sequence keep to the sum of their budgets",
          "[pos][device][memory]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const sprig::pos::Plotter free(dev, 15, sprig::pos::Mode::Abundance);
  sprig::pos::PlotterOptions options = with_budget(free.kept_bytes() + free.record_scratch_bytes() / 4);
  sprig::pos::Plotter first(dev, 15, sprig::pos::Mode::Abundance, options);
  sprig::pos::Plotter second(dev, 15, sprig::pos::Mode::Abundance, options);
  auto both = dev.sequence();
  sprig::pos::record_interleaved(both, {&first, &second}, {device_seed(seed_of(13)), device_seed(seed_of(14))});
  const sprig::MemoryPlan plan = both.memory_plan();
  CHECK(plan.scratch_bytes <= 2 * (options.memory_budget - first.kept_bytes()));
  CHECK(plan.host_scratch_bytes > 0);
  both.run_and_wait();
  require_same_proofs(first.result(), pos_ref::create_proofs(pos_ref::build_tables(seed_of(13), 15, pos_ref::Mode::Abundance)));
  require_same_proofs(second.result(), pos_ref::create_proofs(pos_ref::build_tables(seed_of(14), 15, pos_ref::Mode::Abundance)));
}
