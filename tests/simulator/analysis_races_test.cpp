// The race detector on kernels whose races are known: each race names the memory, both
// lines, an example pair of invocations and how many racing pairs there were; correctly
// synchronised code (barriers, release/acquire atomics, decoupled look-back) has none.
#include "analysis_support.hpp"
#include "sprig/simulator/report_formats.hpp"

using namespace sprig;

TEST_CASE("out[i / 2] = i races write-after-write on out", "[analysis][races]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 3;
  auto k = kernel("halves", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i / 2u] = i;
  }, workgroup(256));
  auto out = dev.alloc<std::uint32_t>(128);
  dev.run(k, grid(256), out);
  const sim::Report r = dev.report();
  REQUIRE(r.races.size() == 1);
  const sim::Race& race = r.races[0];
  CHECK(race.kind == sim::RaceKind::WriteAfterWrite);
  CHECK(std::string(sim::race_name(race.kind)) == "WAW");
  CHECK(race.kernel == "halves");
  CHECK(race.memory == "param0");
  CHECK(race.space == sim::MemorySpace::Buffer);
  CHECK(race.first.line == line);
  CHECK(race.second.line == line);
  CHECK(race.first_invocation == std::array<std::uint32_t, 3>{0, 0, 0});
  CHECK(race.second_invocation == std::array<std::uint32_t, 3>{1, 0, 0});
  CHECK(race.byte_offset == 0);
  CHECK(race.count == 128);
  CHECK_FALSE(r.clean());
}

TEST_CASE("invocation i writes buf[i] while i + 1 reads it: read-after-write and write-after-read",
          "[analysis][races]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t read_line = __LINE__ + 4, write_line = __LINE__ + 5;
  auto k = kernel("neighbours", [](Buffer<std::uint32_t> buf, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> left = 0u;
    if_(i > 0u, [&] { left = buf[i - 1u]; });
    buf[i] = i;
    out[i] = left;
  }, workgroup(256));
  auto buf = dev.alloc<std::uint32_t>(256);
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(k, grid(256), buf, out);
  const sim::Report r = dev.report();
  REQUIRE(r.races.size() == 2);
  const sim::Race* war = nullptr;
  const sim::Race* raw = nullptr;
  for (const sim::Race& race : r.races)
    (race.kind == sim::RaceKind::WriteAfterRead ? war : raw) = &race;
  REQUIRE(war);
  REQUIRE(raw);
  // Within a subgroup the reads run first: 31 write-after-read pairs per subgroup.
  CHECK(war->first.line == read_line);
  CHECK(war->second.line == write_line);
  CHECK(war->count == 8 * 31);
  CHECK(war->first_invocation == std::array<std::uint32_t, 3>{1, 0, 0});
  CHECK(war->second_invocation == std::array<std::uint32_t, 3>{0, 0, 0});
  // Across subgroups, lane 0 reads what the previous subgroup's last lane wrote.
  CHECK(raw->kind == sim::RaceKind::ReadAfterWrite);
  CHECK(raw->first.line == write_line);
  CHECK(raw->second.line == read_line);
  CHECK(raw->count == 7);
  CHECK(raw->first_invocation == std::array<std::uint32_t, 3>{31, 0, 0});
  CHECK(raw->second_invocation == std::array<std::uint32_t, 3>{32, 0, 0});
}

TEST_CASE("a shared-memory exchange races without a barrier and not with one", "[analysis][races]") {
  auto exchange = [](bool with_barrier) {
    return kernel(with_barrier ? "exchange_barrier" : "exchange_racy", [with_barrier](WriteBuffer<std::uint32_t> out) {
      auto tile = shared_array<std::uint32_t>(256, "tile");
      UInt l = local_index();
      tile[l] = l * 3u;
      if (with_barrier) barrier();
      out[global_id().x()] = tile[l ^ 1u];
    }, workgroup(256));
  };
  sim::Device dev(simtest::analysed());
  auto out = dev.alloc<std::uint32_t>(256);
  dev.run(exchange(false), grid(256), out);
  sim::Report r = dev.report();
  REQUIRE(r.races.size() == 1);
  CHECK(r.races[0].kind == sim::RaceKind::ReadAfterWrite);
  CHECK(r.races[0].space == sim::MemorySpace::Shared);
  CHECK(r.races[0].memory == "tile");
  CHECK(r.races[0].count == 256);
  CHECK(r.errors.empty());  // every word was written before it was read
  dev.clear_report();
  dev.run(exchange(true), grid(256), out);
  CHECK(dev.report().races.empty());
  CHECK(dev.report().clean());
}

TEST_CASE("release/acquire atomics order a message between workgroups; relaxed ones do not", "[analysis][races]") {
  auto message = [](MemoryOrder publish, MemoryOrder observe) {
    return kernel("message", [=](CoherentBuffer<std::uint32_t> data, CoherentBuffer<std::uint32_t> flag,
                                 WriteBuffer<std::uint32_t> out) {
      UInt group = workgroup_id().x();
      if_(local_index() == 0u, [&] {
        if_(group == 0u, [&] {
          data[0u] = 42u;
          atomic_store(flag[0u], 1u, publish);
        }).else_([&] {
          Var<UInt> spins = 0u;
          while_([&] { return atomic_load(flag[0u], observe) == 0u; }, [&] { spins = spins + 1u; });
          out[0u] = data[0u];
        });
      });
    }, workgroup(32));
  };
  sim::Device dev(simtest::analysed());
  auto data = dev.alloc<std::uint32_t>(1);
  auto flag = dev.upload(std::vector<std::uint32_t>{0});
  auto out = dev.alloc<std::uint32_t>(1);
  dev.run(message(MemoryOrder::Release, MemoryOrder::Acquire), grid(64), data, flag, out);
  CHECK(dev.download(out)[0] == 42u);
  CHECK(dev.report().races.empty());
  dev.clear_report();
  const std::uint32_t zero = 0;
  dev.write(flag, std::span<const std::uint32_t>(&zero, 1));
  dev.run(message(MemoryOrder::Relaxed, MemoryOrder::Relaxed), grid(64), data, flag, out);
  const sim::Report r = dev.report();
  REQUIRE(r.races.size() == 1);
  CHECK(r.races[0].kind == sim::RaceKind::ReadAfterWrite);
  CHECK(r.races[0].first_invocation == std::array<std::uint32_t, 3>{0, 0, 0});
  CHECK(r.races[0].second_invocation == std::array<std::uint32_t, 3>{32, 0, 0});
}

TEST_CASE("atomics never race with each other", "[analysis][races]") {
  sim::Device dev(simtest::analysed());
  auto k = kernel("histogram", [](Buffer<std::uint32_t> bins) {
    atomic_add(bins[global_id().x() % 4u], 1u);
  }, workgroup(64));
  auto bins = dev.upload(std::vector<std::uint32_t>(4, 0));
  dev.run(k, grid(1024), bins);
  CHECK(dev.download(bins) == std::vector<std::uint32_t>(4, 256));
  CHECK(dev.report().races.empty());
}

TEST_CASE("test mode: a racy launch throws AnalysisFailure, a clean one does not", "[analysis][strict]") {
  sim::Options o = simtest::analysed();
  o.strict = true;
  sim::Device dev(o);
  auto clean = kernel("clean", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = i;
  }, workgroup(64));
  auto racy = kernel("racy", [](WriteBuffer<std::uint32_t> out) { out[0u] = global_id().x(); }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(64);
  CHECK_NOTHROW(dev.run(clean, grid(64), out));
  CHECK_THROWS_AS(dev.run(racy, grid(64), out), sim::AnalysisFailure);
  try {
    dev.run(racy, grid(64), out);
  } catch (const sim::AnalysisFailure& e) {
    CHECK_THAT(std::string(e.what()), Catch::Matchers::Contains("racy") && Catch::Matchers::Contains("WAW"));
  }
}
