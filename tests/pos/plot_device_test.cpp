// The device plotter (stdlib/include/sprig/stdlib/pos/plotter.hpp) against the CPU reference
// (tests/pos/reference): the whole PlotResult for several seeds, then stage by stage for one
// seed so that a failure names the stage, Abundance's published K = 20 facts, the simulator's
// analyses, and bad K.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "pos_device_test_support.hpp"
#include "pos_reference.hpp"
#include "pos_test_support.hpp"
#include "sprig/simulator/device.hpp"
#include "sprig/stdlib/pos/pos.hpp"
#include "sprig/stdlib/pos/verify.hpp"
#include "backends.hpp"

namespace {

using sprig::test::Backend;
using pos_device_test::device_seed;
using pos_device_test::require_same_proofs;
using pos_device_test::seed_of;

// Tables are built once per (seed, K) per test binary: several test cases compare with them.
const pos_ref::Tables& reference_tables(const pos_ref::Seed& seed, int k) {
  static std::map<std::pair<pos_ref::Seed, int>, pos_ref::Tables> cache;
  auto key = std::make_pair(seed, k);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, pos_ref::build_tables(seed, k, pos_ref::Mode::Abundance)).first;
  return it->second;
}

}  // namespace

TEST_CASE("device plot equals the reference for three seeds at K = 15", "[pos][device]") {
  Backend backend = SPRIG_BACKEND;
  sprig::Device& dev = sprig::test::device(backend);
  sprig::pos::Plotter plotter(dev, 15);
  for (std::uint32_t i : {0u, 1u, 2u}) {
    const pos_ref::Seed seed = seed_of(i);
    INFO("seed " << i);
    require_same_proofs(plotter.plot(device_seed(seed)), pos_ref::create_proofs(reference_tables(seed, 15)));
  }
}

TEST_CASE("device plot equals the reference for two seeds at K = 16", "[pos][device]") {
  Backend backend = SPRIG_BACKEND;
  sprig::Device& dev = sprig::test::device(backend);
  sprig::pos::Plotter plotter(dev, 16);
  // The simulator plots one seed: it interprets every lane (docs/pos.md, "The device plotter,
  // tested against the reference", has the times).
  const std::vector<std::uint32_t> seeds =
      backend == Backend::Vulkan ? std::vector<std::uint32_t>{3, 4} : std::vector<std::uint32_t>{3};
  for (std::uint32_t i : seeds) {
    const pos_ref::Seed seed = seed_of(i);
    INFO("seed " << i);
    require_same_proofs(plotter.plot(device_seed(seed)), pos_ref::create_proofs(reference_tables(seed, 16)));
  }
}

TEST_CASE("device plot equals the reference at K = 17 and 18", "[pos][device]") {
  // The simulator, strict, plots K = 18 in about half a minute: the same kernels, every
  // analysis on, one seed per K.
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  for (int k : {17, 18}) {
    INFO("K = " << k);
    sprig::pos::Plotter plotter(dev, k);
    const pos_ref::Seed seed = seed_of(std::uint32_t(k));
    require_same_proofs(plotter.plot(device_seed(seed)), pos_ref::create_proofs(reference_tables(seed, k)));
  }
}

// One seed at K = 15, each stage on its own: table 7's pair sizes (all of matching and
// bucketing), the s-bucket targets (the proof search).
TEST_CASE("device plot stages equal the reference: table 7 pair sizes, s-bucket targets", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const int k = 15;
  const pos_ref::Seed seed = seed_of(0);
  const pos_ref::Tables& tables = reference_tables(seed, k);
  sprig::pos::Plotter plotter(dev, k);
  plotter.plot(device_seed(seed));
  REQUIRE_THROWS_WITH(plotter.parents(2), Catch::Contains("Abundance's tables are transients of the record"));

  // One plot for the checks (sections would re-plot); INFO names the stage that failed.
  {
    INFO("stage: table 7 pair sizes");
    REQUIRE(dev.download(plotter.pair_sizes()) == tables.table[7].pair_sizes);
  }
  {
    INFO("stage: s-bucket targets");
    std::vector<std::uint32_t> targets = dev.download(plotter.s_bucket_targets());
    std::vector<pos_ref::ProofTarget> expected = pos_ref::s_bucket_targets(tables);
    REQUIRE(targets.size() == expected.size());
    for (std::size_t s = 0; s < targets.size(); ++s) {
      INFO("s-bucket " << s);
      REQUIRE(targets[s] == (expected[s].found ? expected[s].t7_position : sprig::pos::no_target));
    }
  }
}

// Abundance's src/chia/tests.rs facts for the pos-spec §2.3 seed (pos-spec §2): 38,179 s-buckets have a
// proof, the first 32,768 are kept, the last kept is 56,210; 15651 has none, 31500 has one.
// Vulkan only: the simulator would take hours. Tagged [slow] (about a minute on lavapipe).
TEST_CASE("device plot at K = 20 has Abundance's published proof counts", "[pos][device][slow]") {
  sprig::Device& dev = sprig::test::device(Backend::Vulkan);
  sprig::pos::Plotter plotter(dev, 20);
  const auto start = std::chrono::steady_clock::now();
  sprig::pos::PlotResult r = plotter.plot(device_seed(pos_test::subspace_test_seed));
  std::cout << "K = 20 device plot: "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s\n";
  std::vector<std::uint32_t> targets = dev.download(plotter.s_bucket_targets());
  REQUIRE(std::count_if(targets.begin(), targets.end(), [](std::uint32_t t) { return t != sprig::pos::no_target; }) ==
          38179);
  REQUIRE(r.count() == 32768);
  REQUIRE(r.s_buckets.back() == 56210);
  REQUIRE(targets[15651] == sprig::pos::no_target);
  REQUIRE(((r.found_proofs[15651 / 8] >> (15651 % 8)) & 1) == 0);
  REQUIRE(((r.found_proofs[31500 / 8] >> (31500 % 8)) & 1) == 1);
  const auto at = std::lower_bound(r.s_buckets.begin(), r.s_buckets.end(), 31500u);
  REQUIRE(*at == 31500);
  const std::size_t i = std::size_t(at - r.s_buckets.begin());
  std::vector<std::uint8_t> proof(r.proofs.begin() + std::ptrdiff_t(i * 160), r.proofs.begin() + std::ptrdiff_t(i * 160 + 160));
  REQUIRE(pos_ref::verify_proof(pos_test::subspace_test_seed, 20, 31500, proof));
  // The device verifier accepts the first 1024 proofs at K = 20, and rejects 31500's proof
  // for s-bucket 31501.
  sprig::pos::Verifier verifier(dev, 20);
  const std::vector<std::uint32_t> challenges(r.s_buckets.begin(), r.s_buckets.begin() + 1024);
  const std::vector<std::uint8_t> proofs(r.proofs.begin(), r.proofs.begin() + 1024 * 160);
  REQUIRE(verifier.verify(device_seed(pos_test::subspace_test_seed), challenges, proofs) ==
          std::vector<std::uint8_t>(1024, 1));
  const std::vector<std::uint32_t> wrong{31501};
  REQUIRE(verifier.verify(device_seed(pos_test::subspace_test_seed), wrong, proof) == std::vector<std::uint8_t>{0});
}

// Strict mode already fails a launch on a race, an out-of-bounds access or barrier
// divergence; the whole plot's report must also hold no error at all.
TEST_CASE("simulator analyses of a K = 15 plot, its encoding and verification are clean", "[pos][device]") {
  sprig::sim::Device& sim = sprig::test::simulator();
  sim.clear_report();
  sprig::pos::Plotter plotter(sim, 15);
  const sprig::pos::PlotResult plot = plotter.plot(device_seed(seed_of(0)));
  // Record encoding and verification of 32 of the proofs run under the same analyses.
  plotter.encode(std::vector<std::uint8_t>(std::size_t(sprig::pos::record_chunks) * sprig::pos::chunk_bytes, 0x5a));
  const std::vector<std::uint32_t> challenges(plot.s_buckets.begin(), plot.s_buckets.begin() + 32);
  const std::vector<std::uint8_t> proofs(plot.proofs.begin(), plot.proofs.begin() + 32 * sprig::pos::proof_bytes(15));
  sprig::pos::Verifier verifier(sim, 15);
  REQUIRE(verifier.verify(device_seed(seed_of(0)), challenges, proofs) == std::vector<std::uint8_t>(32, 1));
  const sprig::sim::Report report = sim.report();
  REQUIRE(report.errors.empty());
  REQUIRE(report.races.empty());
  REQUIRE(report.clean());
  if (const char* path = std::getenv("SPRIG_POS_REPORT")) {  // the excerpt in docs/pos.md
    std::ofstream(path) << report;
  }
}

TEST_CASE("Plotter says when the device is too small for K", "[pos][device]") {
  sprig::sim::Options options;
  options.max_buffer_bytes = std::uint64_t(12) << 20;
  sprig::sim::Device small(options);
  // K = 20's widest buffer: tables 3 and 4's metadata, 80 bits for each of 4440 x 288 slots
  // (12.2 MiB, rounded up).
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(small, 20), Catch::Contains("device too small: K = 20 (Abundance) needs buffers of 13 MiB") &&
                                                          Catch::Contains("allows 12 MiB per buffer"));
  REQUIRE_NOTHROW(sprig::pos::Plotter(small, 17));
}

TEST_CASE("Plotter rejects K outside 15..28 (Subspace's 15..25) with a clear error", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 14), Catch::Contains("K = 14 is out of range"));
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 29), Catch::Contains("K = 29 is out of range (supported: 15..28)"));
  REQUIRE_THROWS_WITH(sprig::pos::Plotter(dev, 26, sprig::pos::Mode::Subspace),
                      Catch::Contains("K = 26 is out of range for Subspace's rules (supported: 15..25)"));
}
