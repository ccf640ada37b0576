// Errors the analyses report with the user's line and an invocation, while the launch
// goes on: reads of shared memory nothing wrote, integer division by zero, a barrier in
// divergent control flow, an out-of-bounds write.
#include "analysis_support.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

TEST_CASE("reading shared memory nothing wrote in this dispatch is an error", "[analysis][errors]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 6;
  auto k = kernel("uninitialized", [](WriteBuffer<std::uint32_t> out) {
    auto tile = shared_array<std::uint32_t>(64, "tile");
    UInt l = local_index();
    if_(l < 32u, [&] { tile[l] = l; });
    barrier();
    out[global_id().x()] = tile[l];
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(64);
  dev.run(k, grid(64), out);
  const sim::Report r = dev.report();
  const sim::Diagnostic* d = r.find(sim::Problem::UninitializedSharedRead);
  REQUIRE(d);
  CHECK(d->is_error);
  CHECK(d->loc.line == line);
  CHECK(d->occurrences == 32);
  CHECK(d->invocation == std::array<std::uint32_t, 3>{32, 0, 0});
  CHECK(r.races.empty());
}

TEST_CASE("integer division by zero is reported with its line and invocation", "[analysis][errors]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t line = __LINE__ + 3;
  auto k = kernel("divide", [](ReadBuffer<std::uint32_t> d, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = 100u / d[i];
  }, workgroup(8));
  auto d = dev.upload(std::vector<std::uint32_t>{1, 2, 0, 4, 5, 0, 7, 8});
  auto out = dev.alloc<std::uint32_t>(8);
  dev.run(k, grid(8), d, out);
  const sim::Report r = dev.report();
  const sim::Diagnostic* e = r.find(sim::Problem::DivisionByZero);
  REQUIRE(e);
  CHECK(e->loc.line == line);
  CHECK(e->occurrences == 2);
  CHECK(e->invocation == std::array<std::uint32_t, 3>{2, 0, 0});
  CHECK_THAT(e->message, Contains("division by zero"));
  CHECK_FALSE(e->is_error);  // defined by the semantics table: a warning
  // The launch went on: the other lanes have their results.
  CHECK(dev.download(out)[3] == 25u);
}

TEST_CASE("a division guarded by a branch is not reported for the lanes the branch skips", "[analysis][errors]") {
  sim::Device dev(simtest::analysed());
  auto k = kernel("guarded_divide", [](ReadBuffer<std::uint32_t> d, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt v = d[i];
    if_(v != 0u, [&] { out[i] = 100u / v; });
  }, workgroup(8));
  auto d = dev.upload(std::vector<std::uint32_t>{1, 2, 0, 4, 5, 0, 7, 8});
  auto out = dev.alloc<std::uint32_t>(8);
  dev.run(k, grid(8), d, out);
  CHECK(dev.report().clean());
}

TEST_CASE("a barrier inside a divergent branch is reported, an out-of-bounds write too", "[analysis][errors]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t barrier_line = __LINE__ + 4, oob_line = __LINE__ + 6;
  auto k = kernel("bad", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 16u, [&] {
      barrier();
    });
    out[i + 1u] = i;
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(64);
  dev.run(k, grid(64), out);
  const sim::Report r = dev.report();
  const sim::Diagnostic* b = r.find(sim::Problem::BarrierDivergence);
  REQUIRE(b);
  CHECK(b->loc.line == barrier_line);
  const sim::Diagnostic* o = r.find(sim::Problem::OutOfBounds);
  REQUIRE(o);
  CHECK(o->loc.line == oob_line);
  CHECK(o->invocation == std::array<std::uint32_t, 3>{63, 0, 0});
  CHECK_FALSE(r.clean());
}
