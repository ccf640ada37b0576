// Divergence counts subgroup-level branch executions: a subgroup reaching an if_, or running
// a loop once from entry to exit, is one execution, divergent when its lanes split. Loop
// iterations are not executions of their own, so a loop inside a divergent branch does
// not dilute the kernel's share.
#include <nlohmann/json.hpp>

#include "analysis_support.hpp"
#include "sprig/simulator/report_formats.hpp"

using namespace sprig;
using Catch::Matchers::Contains;
using simtest::branch_at;

namespace {

// The kernel's headline is the sum of its sites: the same definition at both levels.
void check_headline_is_sum_of_sites(const sim::Report& r) {
  REQUIRE(r.kernels.size() == 1);
  std::uint64_t executions = 0, divergent = 0;
  for (const sim::BranchSite& b : r.branches) {
    executions += b.executions;
    divergent += b.divergent;
  }
  CHECK(r.kernels[0].branch_executions == executions);
  CHECK(r.kernels[0].divergent_branch_executions == divergent);
}

}  // namespace

TEST_CASE("every subgroup splits at an if_ with a loop inside: 100% of the if_, the loop once per run",
          "[analysis][divergence]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t if_line = __LINE__ + 4;
  auto k = kernel("split_with_loop", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> sum = 0u;
    if_(i % 2u == 0u, [&] {
      for_(0u, 8u, [&](UInt j) { sum += i * j; });
    });
    out[i] = sum;
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(128);
  dev.run(k, grid(128), out);  // 4 subgroups of 32
  const sim::Report r = dev.report();
  const sim::BranchSite* branch = branch_at(r, if_line);
  const sim::BranchSite* loop = branch_at(r, if_line + 1);
  REQUIRE(branch);
  REQUIRE(loop);
  CHECK(branch->executions == 4);
  CHECK(branch->divergent == 4);
  CHECK(branch->divergent_share() == 1.0);
  // The loop's 8 iterations are one uniform decision per subgroup, not 8 (nor 9) executions.
  CHECK(loop->executions == 4);
  CHECK(loop->divergent == 0);
  CHECK(loop->iterations == 32);
  check_headline_is_sum_of_sites(r);
  CHECK(r.kernels[0].divergent_share() == 0.5);  // per-iteration counting said 4 / 36 = 11.1%

  CHECK_THAT(sim::to_text(r), Contains("branch executions 8, 50.0% divergent"));
  const nlohmann::json j = nlohmann::json::parse(sim::to_json(r));
  CHECK(j["kernels"][0]["branch_executions"] == 8);
  CHECK(j["kernels"][0]["divergent_share"] == 0.5);
  const std::string html = sim::to_html(r);
  CHECK_THAT(html, Contains("if_: 4 executions, 100.0% divergent") &&
                       Contains("loop: 4 executions (32 iterations), 0.0% divergent"));
}

TEST_CASE("a branch uniform within each subgroup is 0% divergent", "[analysis][divergence]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t if_line = __LINE__ + 3;
  auto k = kernel("uniform_branch", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 64u, [&] { out[i] = i; }).else_([&] { out[i] = 2u * i; });
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(128);
  dev.run(k, grid(128), out);
  const sim::Report r = dev.report();
  const sim::BranchSite* b = branch_at(r, if_line);
  REQUIRE(b);
  CHECK(b->executions == 4);
  CHECK(b->divergent == 0);
  CHECK(b->divergent_share() == 0.0);
  check_headline_is_sum_of_sites(r);
  CHECK(r.kernels[0].divergent_share() == 0.0);
}

TEST_CASE("half the subgroups split: 50% divergent", "[analysis][divergence]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t if_line = __LINE__ + 3;
  auto k = kernel("half_split", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < 64u && i % 2u == 0u, [&] { out[i] = i; });  // subgroups 0, 1 split; 2, 3 all skip it
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(128);
  dev.run(k, grid(128), out);
  const sim::Report r = dev.report();
  const sim::BranchSite* b = branch_at(r, if_line);
  REQUIRE(b);
  CHECK(b->executions == 4);
  CHECK(b->divergent == 2);
  CHECK(b->divergent_share() == 0.5);
  check_headline_is_sum_of_sites(r);
  CHECK(r.kernels[0].divergent_share() == 0.5);
}

TEST_CASE("a loop diverges once per run when its lanes stop at different iterations", "[analysis][divergence]") {
  sim::Device dev(simtest::analysed());
  const std::uint32_t first = __LINE__ + 4;
  auto k = kernel("trip_counts", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> sum = 0u, n = 0u, m = 0u;
    for_(0u, i % 4u, [&](UInt j) { sum += j; });            // ragged: 0 to 3 iterations
    for_(0u, i / 32u + 2u, [&](UInt j) { sum += j; });      // 2 or 3, the same in a subgroup
    loop_([&] {                                             // odd lanes break_ one iteration later
      n += 1u;
      if_(n > i % 2u, [&] { break_(); });
    });
    loop_([&] {                                             // every lane break_s at the second
      m += 1u;
      if_(m >= 2u, [&] { break_(); });
    });
    for_(0u, 3u, [&](UInt a) {                              // uniform outer loop
      for_(0u, a + i % 2u, [&](UInt b) { sum += b; });      // ragged inner loop, run 3 times
    });
    out[i] = sum + n + m;
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(64);
  dev.run(k, grid(64), out);  // 2 subgroups
  const sim::Report r = dev.report();
  struct Expected {
    std::uint32_t line;
    std::uint64_t executions, divergent, iterations;
  };
  for (const Expected& e : {Expected{first, 2, 2, 6}, Expected{first + 1, 2, 0, 5}, Expected{first + 2, 2, 2, 4},
                            Expected{first + 6, 2, 0, 4}, Expected{first + 10, 2, 0, 6},
                            Expected{first + 11, 6, 6, 12}}) {
    INFO("loop at line " << e.line);
    const sim::BranchSite* b = branch_at(r, e.line);
    REQUIRE(b);
    CHECK(b->kind == sim::BranchSite::Kind::Loop);
    CHECK(b->executions == e.executions);
    CHECK(b->divergent == e.divergent);
    CHECK(b->iterations == e.iterations);
  }
  check_headline_is_sum_of_sites(r);
}
