// The race detector's shadow memory: allocated in chunks on first store and skipped for
// buffers that nothing in the launch may write. Neither may change what is found: races
// across chunk boundaries, between a read-only and a writable parameter bound to the same
// buffer, and in a launch after others over the same buffers are all still reported.
#include "analysis_support.hpp"

using namespace sprig;

namespace {

auto halves_kernel() {
  return kernel("halves", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i / 2u] = i;
  }, workgroup(256));
}

auto shift_kernel() {
  return kernel("shift", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[i + 1u];
  }, workgroup(64));
}

}  // namespace

TEST_CASE("a race on every word of a buffer spanning several shadow chunks is counted once per word",
          "[analysis][races]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t words = 20480;  // 2.5 of the shadow's chunks of 8192 words
  auto out = dev.alloc<std::uint32_t>(words);
  dev.run(halves_kernel(), grid(2 * words), out);
  const sim::Report r = dev.report();
  REQUIRE(r.races.size() == 1);
  CHECK(r.races[0].kind == sim::RaceKind::WriteAfterWrite);
  CHECK(r.races[0].count == words);
}

TEST_CASE("a ReadBuffer and a WriteBuffer bound to the same buffer race; bound to different buffers they do not",
          "[analysis][races]") {
  sim::Device dev(simtest::analysed());
  auto a = dev.upload(std::vector<std::uint32_t>(257, 1u));
  auto b = dev.alloc<std::uint32_t>(257);
  dev.run(shift_kernel(), grid(256), a, b);
  CHECK(dev.report().races.empty());
  dev.run(shift_kernel(), grid(256), a, a);
  const sim::Report r = dev.report();
  REQUIRE(r.races.size() == 1);
  // Invocation i + 1 writes the word invocation i read before it (its subgroup reads first).
  CHECK(r.races[0].kind == sim::RaceKind::WriteAfterRead);
  CHECK(r.races[0].memory == "param1");
  CHECK(r.races[0].count == 255);
}

TEST_CASE("a buffer only read by one launch and written racily by the next gives the races a fresh device finds",
          "[analysis][races]") {
  const std::uint32_t n = 4096;
  auto racy_report = [&](bool read_first) {
    sim::Device dev(simtest::analysed());
    auto a = dev.upload(std::vector<std::uint32_t>(n + 1, 1u));
    auto b = dev.alloc<std::uint32_t>(n + 1);
    if (read_first) dev.run(shift_kernel(), grid(n), a, b);  // a read-only: no shadow stamps
    dev.clear_report();
    dev.run(halves_kernel(), grid(2 * n), a);
    dev.run(shift_kernel(), grid(n), b, b);
    return dev.report();
  };
  const sim::Report fresh = racy_report(false), after = racy_report(true);
  REQUIRE(fresh.races.size() == 2);
  REQUIRE(after.races.size() == fresh.races.size());
  for (std::size_t i = 0; i < fresh.races.size(); ++i) {
    CHECK(after.races[i].kind == fresh.races[i].kind);
    CHECK(after.races[i].count == fresh.races[i].count);
    CHECK(after.races[i].first_invocation == fresh.races[i].first_invocation);
    CHECK(after.races[i].second_invocation == fresh.races[i].second_invocation);
  }
}
