// Idle lanes, with known answers: a branch that splits every subgroup, one that is uniform
// per subgroup, a loop whose trip count is the lane index, and the tail of a grid that
// does not fill its last workgroup.
#include "analysis_support.hpp"

using namespace sprig;
using simtest::branch_at;
using simtest::idle_on_lines;

TEST_CASE("if (i % 2 == 0) runs both paths in every subgroup: 50% idle inside", "[analysis][idleness]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t if_line = __LINE__ + 3;
  auto k = kernel("even_odd", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i % 2u == 0u, [&] {
      out[i] = i * 3u + 1u;
    }).else_([&] {
      out[i] = i * 5u + 2u;
    });
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(64);
  dev.run(k, grid(64), out);
  const sim::Report r = dev.report();
  const sim::BranchSite* b = branch_at(r, if_line);
  REQUIRE(b);
  CHECK(b->kind == sim::BranchSite::Kind::If);
  CHECK(b->executions == 2);
  CHECK(b->divergent == 2);
  CHECK(b->divergent_share() == 1.0);
  // Half the lanes idle for every operation of both bodies, and all of it is this branch's.
  for (std::uint32_t line : {if_line + 1, if_line + 3}) {
    const sim::LineStats* l = simtest::line_at(r, line);
    REQUIRE(l);
    CHECK(l->simt_efficiency() == 0.5);
  }
  const std::uint64_t idle = idle_on_lines(r, if_line + 1, if_line + 3);
  CHECK(idle > 0);
  CHECK(b->idle_lane_steps == idle);
  CHECK(b->grid_tail_lane_steps == 0);
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.kernels[0].idle.branch == idle);
  CHECK(r.kernels[0].idle.loop == 0);
  CHECK(r.kernels[0].idle.grid_tail == 0);
  CHECK(r.kernels[0].divergent_share() == 1.0);
}

TEST_CASE("if (i < 32) is uniform per subgroup: no idle lane", "[analysis][idleness]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t if_line = __LINE__ + 3;
  auto k = kernel("first_subgroup", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 32u, [&] { out[i] = i * 3u; }).else_([&] { out[i] = i; });
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(64);
  dev.run(k, grid(64), out);
  const sim::Report r = dev.report();
  const sim::BranchSite* b = branch_at(r, if_line);
  REQUIRE(b);
  CHECK(b->executions == 2);
  CHECK(b->divergent == 0);
  CHECK(b->idle_lane_steps == 0);
  CHECK(r.kernels[0].idle.total() == 0);
  CHECK(r.kernels[0].simt_efficiency() == 1.0);
}

TEST_CASE("a loop whose trip count is the lane index: trip-count imbalance", "[analysis][idleness]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t loop_line = __LINE__ + 4;
  auto k = kernel("triangle", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> sum = 0u;
    for_(0u, i, [&](UInt j) {
      sum = sum + j * j;
    });
    out[i] = sum;
  }, workgroup(32));
  auto out = dev.alloc<std::uint32_t>(32);
  dev.run(k, grid(32), out);
  const sim::Report r = dev.report();
  const sim::BranchSite* b = branch_at(r, loop_line);
  REQUIRE(b);
  CHECK(b->kind == sim::BranchSite::Kind::Loop);
  // One subgroup runs the loop once; lane 31 iterates 31 times and lane 0 never starts.
  CHECK(b->executions == 1);
  CHECK(b->divergent == 1);
  CHECK(b->iterations == 31);
  CHECK(b->idle_lane_steps > 0);
  CHECK(b->idle_lane_steps == r.kernels[0].idle.loop);
  CHECK(r.kernels[0].idle.branch == 0);
  // The body's line: 31 iterations with 31, 30, ..., 1 lanes active of 32.
  const sim::LineStats* body = simtest::line_at(r, loop_line + 1);
  REQUIRE(body);
  CHECK(body->lane_operations * 31 == body->issued * (31 * 32 / 2));
}

TEST_CASE("1000 invocations in workgroups of 256: the last 24 lanes are the grid's tail", "[analysis][idleness]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t guard_line = __LINE__ + 3;
  auto k = kernel("tail", [](WriteBuffer<std::uint32_t> out, UInt n) {
    UInt i = global_id().x();
    if_(i < n, [&] {
      out[i] = i * 7u;
    });
  }, workgroup(256));
  auto out = dev.alloc<std::uint32_t>(1000);
  dev.run(k, grid(1000), out, 1000u);
  const sim::Report r = dev.report();
  const sim::BranchSite* b = branch_at(r, guard_line);
  REQUIRE(b);
  CHECK(b->executions == 32);
  CHECK(b->divergent == 1);  // only the subgroup that straddles 1000
  CHECK(b->idle_lane_steps == 0);
  CHECK(b->grid_tail_lane_steps == idle_on_lines(r, guard_line + 1, guard_line + 1));
  CHECK(b->grid_tail_lane_steps > 0);
  CHECK(r.kernels[0].idle.grid_tail > 0);
  CHECK(r.kernels[0].idle.branch == 0);
  CHECK(r.kernels[0].invocations == 1024);
}

TEST_CASE("lanes that return early and partial subgroups are told apart", "[analysis][idleness]") {
  sim::Device dev(simtest::analysed());
  auto k = kernel("early_return", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i % 4u != 0u, [&] { return_(); });
    out[i] = i;
  }, workgroup(48));  // two subgroups of 32 lanes, the second with 16 present
  auto out = dev.alloc<std::uint32_t>(48);
  dev.run(k, grid(48), out);
  const sim::Report r = dev.report();
  CHECK(r.kernels[0].idle.returned > 0);
  CHECK(r.kernels[0].idle.partial_subgroup > 0);
  CHECK(r.kernels[0].idle.grid_tail == 0);
}
