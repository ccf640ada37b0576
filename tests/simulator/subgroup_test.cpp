// Subgroups: a workgroup splits into subgroups by local index; builtins say where a lane
// is; subgroup operations see exactly the active lanes. Results that do not depend on the
// subgroup size are the same at sizes 8 and 32.
#include "sim_test_support.hpp"

using namespace sprig;
using simtest::outputs;

TEST_CASE("builtins: ids, counts and the subgroup split by local index") {
  auto k = kernel("builtins", [](WriteBuffer<std::uint32_t> out) {
    UInt g = global_id().x() + global_id().y() * 12u;
    UInt base = g * 10u;
    out[base + 0u] = local_index();
    out[base + 1u] = local_id().x() + local_id().y() * 100u;
    out[base + 2u] = workgroup_id().x() + workgroup_id().y() * 100u;
    out[base + 3u] = num_workgroups().x() + num_workgroups().y() * 100u;
    out[base + 4u] = workgroup_size().x() + workgroup_size().y() * 100u;
    out[base + 5u] = subgroup_size();
    out[base + 6u] = subgroup_invocation_id();
    out[base + 7u] = subgroup_id();
    out[base + 8u] = num_subgroups();
    out[base + 9u] = global_count().x();
  }, workgroup(6, 2));
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(simtest::device(8), k, 24 * 10, grid(12, 2));
  for (std::uint32_t gy = 0; gy < 2; ++gy) {
    for (std::uint32_t gx = 0; gx < 12; ++gx) {
      const std::uint32_t* r = &got[(gx + gy * 12) * 10];
      std::uint32_t lx = gx % 6, ly = gy % 2, li = lx + ly * 6;
      INFO("invocation " << gx << "," << gy);
      CHECK(r[0] == li);
      CHECK(r[1] == lx + ly * 100);
      CHECK(r[2] == gx / 6 + (gy / 2) * 100);
      CHECK(r[3] == 2 + 1 * 100);
      CHECK(r[4] == 6 + 2 * 100);
      CHECK(r[5] == 8);
      CHECK(r[6] == li % 8);
      CHECK(r[7] == li / 8);
      CHECK(r[8] == 2);
      CHECK(r[9] == 12);
    }
  }
}

TEST_CASE("subgroup reductions and scans see only the active lanes") {
  auto k = kernel("partial_scan", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt lane = subgroup_invocation_id();
    out[i] = 0u;
    if_(lane % 3u != 1u, [&] {
      out[i] = subgroup_add(lane) * 10000u + subgroup_exclusive_add(1u) * 100u + subgroup_inclusive_max(lane);
    });
  }, workgroup(8));
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(simtest::device(8), k, 8, grid(8));
  // active lanes: 0, 2, 3, 5, 6 -> sum 16
  CHECK(got == std::vector<std::uint32_t>{160000, 0, 160102, 160203, 0, 160305, 160406, 0});
}

TEST_CASE("votes, ballots, broadcasts and shuffles in a divergent branch") {
  auto k = kernel("votes", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt lane = subgroup_invocation_id();
    if_(lane >= 2u, [&] {
      UInt base = i * 8u;
      out[base + 0u] = select(subgroup_elect(), 1u, 0u);
      out[base + 1u] = select(subgroup_all(lane >= 2u), 1u, 0u);
      out[base + 2u] = select(subgroup_any(lane == 0u), 1u, 0u);
      out[base + 3u] = subgroup_ballot(lane % 2u == 0u).x();
      out[base + 4u] = subgroup_broadcast_first(lane * 10u);
      out[base + 5u] = subgroup_broadcast(lane, 5u);
      out[base + 6u] = subgroup_shuffle_xor(lane, 1u);
      out[base + 7u] = ballot_exclusive_bit_count(subgroup_ballot(true));
    });
  }, workgroup(8));
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(simtest::device(8), k, 64, grid(8));
  for (std::uint32_t lane = 2; lane < 8; ++lane) {
    const std::uint32_t* r = &got[lane * 8];
    INFO("lane " << lane);
    CHECK(r[0] == (lane == 2 ? 1u : 0u));
    CHECK(r[1] == 1u);
    CHECK(r[2] == 0u);
    CHECK(r[3] == 0b01010100u);
    CHECK(r[4] == 20u);
    CHECK(r[5] == 5u);
    CHECK(r[6] == (lane ^ 1u));
    CHECK(r[7] == lane - 2);
  }
}

TEST_CASE("a shuffle from an inactive lane gives 0 and a warning, not an error") {
  sim::Options options;
  options.subgroup_size = 8;
  sim::Device dev(options);
  auto k = kernel("shuffle_up", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = subgroup_shuffle_up(i + 1u, 1u);
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(dev, k, 8, grid(8)) == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  sim::Report r = dev.report();
  CHECK(r.errors.empty());
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].problem == sim::Problem::InactiveLane);
}

TEST_CASE("a workgroup-wide computation gives the same result at subgroup sizes 8 and 32") {
  auto k = kernel("group_sums", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    auto partial = shared_array<std::uint32_t>(64, "partial");
    UInt l = local_index();
    UInt i = global_id().x();
    UInt x = in[i];
    // Subgroup sums written by each subgroup's first lane, then summed by lane 0.
    UInt s = subgroup_add(x);
    partial[l] = 0u;
    barrier();
    if_(subgroup_elect(), [&] { partial[subgroup_id()] = s; });
    barrier();
    if_(l == 0u, [&] {
      Var<UInt> total = 0u;
      for_(0u, num_subgroups(), [&](UInt j) { total += partial[j]; });
      out[workgroup_id().x()] = total;
    });
  }, workgroup(64));
  std::vector<std::uint32_t> values(256);
  for (std::uint32_t i = 0; i < 256; ++i) values[i] = i * i % 1000;
  auto run = [&](std::uint32_t size) {
    auto in = simtest::device(size).upload(values);
    return outputs<std::uint32_t>(simtest::device(size), k, 4, grid(256), in);
  };
  std::vector<std::uint32_t> expected(4, 0);
  for (std::uint32_t i = 0; i < 256; ++i) expected[i / 64] += values[i];
  CHECK(run(8) == expected);
  CHECK(run(32) == expected);
}

TEST_CASE("subgroups of 4 lanes: the split, scans, ballots and shuffles stay within 4 lanes") {
  auto k = kernel("four_lanes", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt lane = subgroup_invocation_id();
    UInt base = i * 8u;
    out[base + 0u] = subgroup_size();
    out[base + 1u] = subgroup_id();
    out[base + 2u] = subgroup_inclusive_add(lane + 1u);
    out[base + 3u] = subgroup_ballot(lane != 1u).x();
    out[base + 4u] = ballot_bit_count(subgroup_ballot(true));
    out[base + 5u] = subgroup_shuffle_xor(i, 3u);
    out[base + 6u] = subgroup_broadcast(i, 3u);
    out[base + 7u] = subgroup_max(i);
  }, workgroup(12));
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(simtest::device(4), k, 12 * 8, grid(12));
  for (std::uint32_t i = 0; i < 12; ++i) {
    const std::uint32_t* r = &got[i * 8];
    const std::uint32_t lane = i % 4, first = i - lane;
    INFO("invocation " << i);
    CHECK(r[0] == 4);
    CHECK(r[1] == i / 4);
    CHECK(r[2] == (lane + 1) * (lane + 2) / 2);
    CHECK(r[3] == 0b1101u);
    CHECK(r[4] == 4);
    CHECK(r[5] == (i ^ 3u));
    CHECK(r[6] == first + 3);
    CHECK(r[7] == first + 3);
  }
}

TEST_CASE("256 subgroups of 4 lanes in one workgroup: barriers, shared memory and every analysis") {
  sim::Options options;
  options.subgroup_size = 4;
  options.strict = true;  // a race or divergent barrier would throw
  sim::Device dev(options);
  auto k = kernel("reverse_in_shared", [](WriteBuffer<std::uint32_t> out) {
    auto staged = shared_array<std::uint32_t>(1024, "staged");
    UInt l = local_index();
    staged[l] = l * 3u;
    barrier();
    out[l] = staged[1023u - l] + subgroup_add(1u);
  }, workgroup(1024));
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(dev, k, 1024, grid(1024));
  for (std::uint32_t l = 0; l < 1024; ++l) REQUIRE(got[l] == (1023 - l) * 3 + 4);
  CHECK(dev.report().errors.empty());
}
