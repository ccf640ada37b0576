// Quality strings on the device (quality.hpp) against the reference's proof_quality, for
// every x pair and random challenges, on both backends.
#include <random>

#include <catch2/catch.hpp>

#include "backends.hpp"
#include "pos_reference.hpp"
#include "sprig/stdlib/pos/pos.hpp"

TEST_CASE("device qualities equal the reference's for every x pair of a plot's proofs", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  for (int k : {15, 16}) {
    INFO("K = " << k);
    sprig::pos::Plotter plotter(dev, k);
    sprig::pos::Seed seed{};
    seed[0] = std::uint8_t(k);
    const sprig::pos::PlotResult plot = plotter.plot(seed);
    REQUIRE(plot.count() > 64);
    std::mt19937 rng{std::uint32_t(k)};
    std::vector<sprig::pos::Challenge> challenges(64);
    for (std::size_t i = 0; i < challenges.size(); ++i) {
      for (auto& b : challenges[i]) b = std::uint8_t(rng());
      challenges[i][31] = std::uint8_t((rng() & 0xe0u) | (i % 32));  // every pair, twice
    }
    const std::vector<std::uint8_t> proofs(plot.proofs.begin(),
                                           plot.proofs.begin() + std::ptrdiff_t(64 * sprig::pos::proof_bytes(k)));
    const std::vector<sprig::pos::Quality> got = sprig::pos::qualities(dev, k, challenges, proofs);
    REQUIRE(got.size() == 64);
    for (std::size_t i = 0; i < 64; ++i) {
      pos_ref::Challenge c;
      std::copy(challenges[i].begin(), challenges[i].end(), c.begin());
      const std::span<const std::uint8_t> proof(proofs.data() + i * sprig::pos::proof_bytes(k), sprig::pos::proof_bytes(k));
      INFO("proof " << i);
      CHECK(got[i] == pos_ref::proof_quality(k, c, proof));
    }
  }
}

TEST_CASE("the first K challenge bits match the reference's", "[pos][device]") {
  sprig::pos::Challenge c{};
  c[0] = 0x12, c[1] = 0x34, c[2] = 0x56, c[3] = 0x78;
  pos_ref::Challenge r;
  std::copy(c.begin(), c.end(), r.begin());
  CHECK(sprig::pos::challenge_bits(16, c) == 0x1234u);
  CHECK(sprig::pos::challenge_bits(20, c) == pos_ref::challenge_bits(20, r));
  CHECK(sprig::pos::subspace_challenge(20, 600426542) == pos_ref::subspace_challenge_bits(20, 600426542));
}

TEST_CASE("device qualities reject proofs of the wrong length", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  std::vector<sprig::pos::Challenge> challenges(2);
  std::vector<std::uint8_t> proofs(2 * 120 - 1);
  REQUIRE_THROWS_WITH(sprig::pos::qualities(dev, 15, challenges, proofs), Catch::Contains("a K = 15 proof is 120 bytes"));
}
