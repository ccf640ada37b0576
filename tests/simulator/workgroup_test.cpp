// Workgroups: barriers synchronise all subgroups of a workgroup; atomics; barriers in
// divergent control flow are errors; workgroups waiting on each other are interleaved, and
// a wait that can never end is a deadlock diagnostic, not a hang.
#include <algorithm>
#include <numeric>

#include "sim_test_support.hpp"

using namespace sprig;
using Catch::Matchers::Contains;
using simtest::outputs;

TEST_CASE("a barrier makes every subgroup's shared writes visible to the others") {
  auto k = kernel("reverse", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    auto tile = shared_array<std::uint32_t>(64, "tile");
    UInt l = local_index();
    UInt base = workgroup_id().x() * 64u;
    tile[l] = in[base + l];
    barrier();
    out[base + l] = tile[63u - l];
  }, workgroup(64));
  std::vector<std::uint32_t> values(256);
  std::iota(values.begin(), values.end(), 0u);
  for (std::uint32_t size : {8u, 32u}) {
    auto in = simtest::device(size).upload(values);
    std::vector<std::uint32_t> got = outputs<std::uint32_t>(simtest::device(size), k, 256, grid(256), in);
    for (std::uint32_t i = 0; i < 256; ++i) REQUIRE(got[i] == (i / 64) * 64 + 63 - i % 64);
  }
}

TEST_CASE("a tree reduction with a barrier per level, some lanes idle at each level") {
  auto k = simtest::tree_sum_kernel("tree_sum");
  std::vector<std::uint32_t> values(1000);
  std::iota(values.begin(), values.end(), 1u);
  auto in = simtest::device(16).upload(values);
  std::vector<std::uint32_t> expected(8, 0);
  for (std::uint32_t i = 0; i < 1000; ++i) expected[i / 128] += i + 1;
  CHECK(outputs<std::uint32_t>(simtest::device(16), k, 8, grid(1024), in) == expected);
}

TEST_CASE("atomics on shared memory and buffers give exact counts") {
  auto k = kernel("histogram", [](ReadBuffer<std::uint32_t> in, Buffer<std::uint32_t> bins) {
    auto local = shared_array<std::uint32_t>(16, "local_bins");
    UInt l = local_index();
    if_(l < 16u, [&] { local[l] = 0u; });
    barrier();
    atomic_add(local[in[global_id().x()] % 16u], 1u);
    barrier();
    if_(l < 16u, [&] { atomic_add(bins[l], local[l]); });
  }, workgroup(64));
  std::vector<std::uint32_t> values(4096), expected(16, 0);
  for (std::uint32_t i = 0; i < values.size(); ++i) {
    values[i] = i * 2654435761u >> 7;
    ++expected[values[i] % 16];
  }
  auto in = simtest::device().upload(values);
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 16, grid(4096), in) == expected);
}

TEST_CASE("atomic min, max, exchange and 64-bit atomics return the previous value") {
  auto k = kernel("atomic_ops", [](Buffer<std::int32_t> s, Buffer<std::uint64_t> w, WriteBuffer<std::int32_t> old) {
    UInt i = global_id().x();
    Int v = cast<std::int32_t>(i) - 2;
    old[i] = atomic_min(s[0], v);
    atomic_max(s[1], v);
    atomic_exchange(s[2], v);
    atomic_add(w[0], cast<std::uint64_t>(i) << 32ull);
    atomic_or(w[1], 1ull << cast<std::uint64_t>(i + 40u));
  }, workgroup(4));
  auto s = simtest::device().upload(std::vector<std::int32_t>{0, 0, 0});
  auto w = simtest::device().upload(std::vector<std::uint64_t>{1, 0});
  CHECK(outputs<std::int32_t>(simtest::device(), k, 4, grid(4), s, w) == std::vector<std::int32_t>{0, -2, -2, -2});
  CHECK(simtest::device().download(s) == std::vector<std::int32_t>{-2, 1, 1});
  CHECK(simtest::device().download(w) == std::vector<std::uint64_t>{(6ull << 32) + 1, 0xFull << 40});
}

TEST_CASE("a barrier inside a callable synchronises the workgroup") {
  auto k = kernel("callable_barrier", [](WriteBuffer<std::uint32_t> out) {
    auto tile = shared_array<std::uint32_t>(32, "tile");
    auto exchange = callable("exchange", [&](UInt l, UInt v) -> UInt {
      tile[l] = v;
      barrier();
      return UInt(tile[31u - l]);
    });
    UInt l = local_index();
    out[l] = exchange(l, l * 10u);
  }, workgroup(32));
  std::vector<std::uint32_t> expected;
  for (std::uint32_t l = 0; l < 32; ++l) expected.push_back((31 - l) * 10);
  CHECK(outputs<std::uint32_t>(simtest::device(8), k, 32, grid(32)) == expected);
}

TEST_CASE("a subgroup spinning on a flag that a later subgroup of its workgroup sets makes progress") {
  sim::Options options;
  options.subgroup_size = 8;
  sim::Device dev(options);
  auto k = kernel("intra_group_wait", [](WriteBuffer<std::uint32_t> out) {
    auto flag = shared<std::uint32_t>("flag");
    UInt l = local_index();
    if_(l == 0u, [&] { atomic_store(flag, 0u); });
    barrier();
    if_(subgroup_id() == 0u, [&] {
      Var<UInt> polls = 0u;
      while_([&] { return atomic_load(flag) == 0u; }, [&] { polls += 1u; });
    });
    if_(l == 15u, [&] { atomic_store(flag, 42u); });  // subgroup 1
    out[l] = atomic_load(flag);
  }, workgroup(16));
  CHECK(outputs<std::uint32_t>(dev, k, 16, grid(16)) == std::vector<std::uint32_t>(16, 42u));
  CHECK(dev.report().clean());
}

TEST_CASE("a barrier under divergent control flow is reported at its line") {
  sim::Device dev;
  const std::uint32_t line = __LINE__ + 4;
  auto k = kernel("divergent_barrier", [](WriteBuffer<std::uint32_t> out) {
    UInt l = local_index();
    if_(l < 16u, [&] {
      barrier();
      out[l] = 1u;
    });
  }, workgroup(32));
  auto out = dev.upload(std::vector<std::uint32_t>(32));
  dev.run(k, grid(32), out);
  sim::Report r = dev.report();
  REQUIRE(!r.errors.empty());
  CHECK(r.errors[0].problem == sim::Problem::BarrierDivergence);
  CHECK(r.errors[0].loc.line == line);
  CHECK_THAT(r.errors[0].message, Contains("divergent"));
}

TEST_CASE("a barrier that some subgroups never reach is reported") {
  sim::Options options;
  options.subgroup_size = 8;
  sim::Device dev(options);
  auto k = kernel("early_exit_barrier", [](WriteBuffer<std::uint32_t> out) {
    UInt l = local_index();
    if_(l >= 8u, [&] { return_(); });  // the second subgroup leaves
    barrier();
    out[l] = 1u;
  }, workgroup(16));
  auto out = dev.upload(std::vector<std::uint32_t>(16));
  dev.run(k, grid(16), out);
  REQUIRE(dev.report().find(sim::Problem::BarrierDivergence) != nullptr);
  CHECK_THAT(dev.report().find(sim::Problem::BarrierDivergence)->message, Contains("not reached by subgroup 1"));
  std::vector<std::uint32_t> got = dev.download(out);
  CHECK(std::count(got.begin(), got.end(), 1u) == 8);  // the first subgroup went on
}

TEST_CASE("a workgroup waiting for a later workgroup's flag makes progress (round-robin)") {
  sim::Device dev;
  // Workgroup 0 waits for workgroup 3, which only starts once 0 yields in its spin loop.
  auto k = kernel("wait_for_later", [](CoherentBuffer<std::uint32_t> flags, WriteBuffer<std::uint32_t> out) {
    UInt g = workgroup_id().x();
    UInt l = local_index();
    if_(g == 0u, [&] {
      Var<UInt> polls = 0u;
      while_([&] { return atomic_load(flags[3], MemoryOrder::Acquire) == 0u; }, [&] { polls += 1u; });
    });
    if_(l == 0u, [&] { atomic_store(flags[g], g + 1u, MemoryOrder::Release); });
    out[g * 32u + l] = atomic_load(flags[3]);
  }, workgroup(32));
  auto flags = dev.upload(std::vector<std::uint32_t>(4, 0));
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(dev, k, 128, grid(128), flags);
  CHECK(dev.report().clean());
  CHECK(std::all_of(got.begin(), got.begin() + 32, [](std::uint32_t v) { return v == 4u; }));
  CHECK(dev.download(flags) == std::vector<std::uint32_t>{1, 2, 3, 4});
}

TEST_CASE("a wait that nobody will end is reported as a deadlock at the waiting loop, and the launch fails") {
  sim::Options options;
  options.spin_limit = 4096;
  sim::Device dev(options);
  const std::uint32_t line = __LINE__ + 4;
  auto k = kernel("never_set", [](CoherentBuffer<std::uint32_t> flag, WriteBuffer<std::uint32_t> out) {
    UInt l = local_index();
    Var<UInt> polls = 0u;
    while_([&] { return atomic_load(flag[0]) == 0u; }, [&] { polls += 1u; });
    out[l] = 1u;
  }, workgroup(32));
  auto flag = dev.upload(std::vector<std::uint32_t>{0});
  auto out = dev.upload(std::vector<std::uint32_t>(64));
  CHECK_THROWS_AS(dev.run(k, grid(64), flag, out), sim::LaunchStopped);
  sim::Report report = dev.report();
  const sim::Diagnostic* d = report.find(sim::Problem::Deadlock);
  REQUIRE(d != nullptr);
  CHECK(d->loc.line == line);
  CHECK_THAT(d->message, Contains("deadlock"));
  CHECK(dev.download(out) == std::vector<std::uint32_t>(64, 0));
}

TEST_CASE("a runaway loop is stopped by the watchdog, and the launch fails naming the kernel and the limit") {
  sim::Options options;
  options.loop_iteration_limit = 10000;
  sim::Device dev(options);
  auto k = kernel("forever", [](WriteBuffer<std::uint32_t> out) {
    Var<UInt> x = 0u;
    loop_([&] { x += 1u; });
    out[0] = x;
  }, workgroup(1));
  auto out = dev.upload(std::vector<std::uint32_t>(1));
  CHECK_THROWS_WITH(dev.run(k, grid(1), out), Contains("kernel 'forever'") && Contains("did not finish") &&
                                                   Contains("10000 iterations") && Contains("loop_iteration_limit"));
  REQUIRE(dev.report().find(sim::Problem::RunawayLoop) != nullptr);
}
