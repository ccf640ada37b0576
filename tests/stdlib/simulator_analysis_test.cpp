// The simulator's analyses find nothing wrong in the stdlib's kernels: no out-of-bounds
// access, no barrier divergence, no deadlock, no read of an inactive lane, at subgroup
// sizes 8 and 32 — and the decoupled look-back runs there without hanging. The sorts run
// plain and under a memory budget (its chunks' merge).
#include <algorithm>
#include <iostream>
#include <numeric>

#include "stdlib_targets.hpp"

using namespace sprig;
using stdlib_test::random_values;

namespace {

struct Pair {
  std::uint32_t a;
  std::uint32_t b;
};
SPRIG_STRUCT(Pair, a, b)

void require_clean(const sim::Device& dev) {
  sim::Report report = dev.report();
  if (!report.clean() || !report.warnings.empty()) std::cout << report;
  REQUIRE(report.clean());
  REQUIRE(report.warnings.empty());
}

}  // namespace

TEST_CASE("the simulator reports no problem in any stdlib kernel") {
  std::uint32_t subgroup = GENERATE(8u, 32u);
  sim::Options options;
  options.subgroup_size = subgroup;
  sim::Device dev(options);  // its own device: a report of these kernels only
  std::size_t n = 9000;      // three tiles and a partial one
  auto v = random_values<std::uint32_t>(n, 1);
  auto in = dev.upload(v);
  auto out = dev.alloc<std::uint32_t>(n);
  inclusive_scan(dev, in, out, plus<std::uint32_t>(), ScanOptions{ScanMode::DecoupledLookBack});
  exclusive_scan(dev, in, out, plus<std::uint32_t>(), ScanOptions{ScanMode::ReduceThenScan});
  auto pairs = dev.upload(std::vector<Pair>(n, Pair{1, 2}));
  auto pairs_out = dev.alloc<Pair>(n);
  auto pair_op = make_operator<Pair>("pair_sum", [](Expr<Pair> x, Expr<Pair> y) {
    Var<Pair> r;
    r[&Pair::a] = x[&Pair::a] + y[&Pair::a];
    r[&Pair::b] = x[&Pair::b] * y[&Pair::b];
    return r.load();
  }, Pair{0, 1});
  inclusive_scan(dev, pairs, pairs_out, pair_op);
  CHECK(reduce(dev, in) == std::accumulate(v.begin(), v.end(), 0u));
  CHECK(reduce(dev, pairs, pair_op).a == n);
  partition(dev, in, out, [](Expr<std::uint32_t> x) { return x < 0x80000000u; });
  auto keys = dev.upload(v);
  radix_sort(dev, in, SortOptions{0, 32, SortMode::OneSweep});
  radix_sort(dev, keys, SortOptions{0, 32, SortMode::CountScanScatter});
  // Under a quarter of its temporaries: chunks sorted, then merged by neighbours, over few
  // distinct keys (runs of equal keys across the chunks' boundaries).
  auto few = random_values<std::uint32_t>(n, 2, 7);
  auto budgeted = dev.upload(few), payload = dev.upload(v);
  radix_sort(dev, budgeted, payload,
             SortOptions{.memory_budget = radix_sort_scratch_bytes<std::uint32_t>(dev.info(), n, true) / 4});
  std::sort(few.begin(), few.end());
  CHECK(dev.download(budgeted) == few);
  require_clean(dev);
}
