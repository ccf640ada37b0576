// The simulator's analyses find nothing wrong in the MSM's kernels — no race, no
// out-of-bounds access, no uninitialised read, no barrier divergence — at subgroup sizes 8
// and 32, over inputs that take every path: zero digits, a bucket spanning runs, points at
// infinity, a tree over segments of buckets, buckets spanning chunks of runs, several batches
// of windows, the batch form, split scalars, and a table of window multiples in parts.
#include <iostream>

#include <catch2/catch.hpp>

#include "msm_test_support.hpp"

using namespace sprig;
using curve::Bn254G1;
using msm_test::RefPoint;

TEST_CASE("the simulator reports no problem in the MSM kernels") {
  std::uint32_t subgroup = GENERATE(8u, 32u);
  sim::Options options;
  options.subgroup_size = subgroup;
  sim::Device dev(options);  // its own device: a report of these kernels only
  const std::size_t n = 140;
  msm_test::Progression<Bn254G1> inputs(n, 30);
  inputs.points[5] = RefPoint::at_infinity();
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 31);
  for (std::size_t i = 0; i < 70; ++i) scalars[i] = 99;  // one bucket over two runs
  scalars[7] = 0;
  // 128 buckets per window: four segments of 32, two levels of the tree.
  auto first = msm_test::run_msm<Bn254G1>(dev, inputs.points, scalars, {.window_bits = 8, .segment_length = 32});
  // A budget of about a third of the windows: several batches.
  curve::MsmPlan plan = curve::msm_plan<Bn254G1>(dev, n, {.window_bits = 8});
  auto batched = msm_test::run_msm<Bn254G1>(dev, inputs.points, scalars,
                                            {.window_bits = 8, .memory_budget = plan.peak_bytes() / 3});
  msm_test::check_point(first.point, msm_test::naive_sum<Bn254G1>(inputs.points, scalars));
  CHECK(batched.batches > 2);
  CHECK(batched.point == first.point);
  // Runs of one entry: the 70 equal scalars' buckets span two chunks of 64 runs.
  CHECK(msm_test::run_msm<Bn254G1>(dev, inputs.points, scalars, {.window_bits = 8, .run_length = 1}).point ==
        first.point);
  auto points = dev.upload(curve_test::affine_points<Bn254G1>(inputs.points));
  std::vector<mpz_class> two = scalars;
  two.insert(two.end(), scalars.begin(), scalars.end());
  auto both = curve::msm_batch<Bn254G1>(dev, points, dev.upload(msm_test::scalar_words<Bn254G1>(two)));
  CHECK(both.points == std::vector<curve::Affine<Bn254G1>>{first.point, first.point});
  // Scalars split by the endomorphism: the points' images, two rows of digits a window, in
  // one batch and in several.
  const curve::MsmOptions split{.window_bits = 8, .endomorphism = curve::Endomorphism::On};
  CHECK(msm_test::run_msm<Bn254G1>(dev, inputs.points, scalars, split).point == first.point);
  curve::MsmOptions split_batched = split;
  split_batched.memory_budget = curve::msm_plan<Bn254G1>(dev, n, split).peak_bytes() / 2;
  auto split_result = msm_test::run_msm<Bn254G1>(dev, inputs.points, scalars, split_batched);
  CHECK(split_result.batches > 1);
  CHECK(split_result.point == first.point);
  // Over a table of window multiples: its making, and one set of buckets in several batches.
  auto table = curve::msm_table<Bn254G1>(dev, points, {.window_bits = 8, .part_bytes = 5 * n * 64});  // 7 parts
  auto scalar_buffer = dev.upload(msm_test::scalar_words<Bn254G1>(scalars));
  CHECK(curve::msm<Bn254G1>(dev, table, scalar_buffer).point == first.point);
  std::uint64_t table_budget = 0;  // two windows a batch: batches within parts, and across them
  const curve::MsmPlan table_plan = curve::msm_plan<Bn254G1>(dev, table);
  for (const curve::MsmBuffer& b : curve::detail::msm_buffers<Bn254G1>(dev.info(), table_plan, 2, n))
    table_budget += b.bytes;
  auto table_batched = curve::msm<Bn254G1>(dev, table, scalar_buffer, {.memory_budget = table_budget});
  CHECK(table_batched.batches > 2);
  CHECK(table_batched.point == first.point);

  sim::Report report = dev.report();
  if (!report.clean() || !report.warnings.empty()) std::cout << report;
  CHECK(report.clean());
  CHECK(report.warnings.empty());
}
