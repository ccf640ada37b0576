// Affine pair rounds before the accumulation (MsmOptions::affine_rounds,
// affine_pair_sums.hpp): each round adds a bucket's points in pairs in affine coordinates,
// one inversion per invocation's slots. The inputs meet every kind of pair: equal points (a
// doubling), opposite points, the point at infinity on one side or both, buckets of odd
// counts, a bucket over many runs and zero digits.
#include <catch2/catch.hpp>

#include "msm_test_support.hpp"

using namespace sprig;
using curve::Bn254G1;
using msm_test::CurveReference;
using msm_test::RefPoint;

namespace {

struct PairInputs {
  std::vector<RefPoint> points;
  std::vector<mpz_class> scalars;
};

PairInputs pair_inputs(std::size_t n, unsigned long seed) {
  msm_test::Progression<Bn254G1> progression(n, seed);
  PairInputs in{progression.points, msm_test::random_scalars<Bn254G1>(n, seed + 1)};
  for (std::size_t i = 1; i < 24; ++i) {  // equal points and scalars: pairs that double
    in.points[i] = in.points[0];
    in.scalars[i] = in.scalars[0];
  }
  in.points[30] = CurveReference<Bn254G1>::negate(in.points[31]);  // opposite points in one bucket
  in.scalars[30] = in.scalars[31];
  in.points[40] = in.points[41] = RefPoint::at_infinity();
  in.scalars[40] = in.scalars[41];
  for (std::size_t i = n / 2; i < n; ++i) in.scalars[i] = in.scalars[n / 2];  // half the points in one bucket a window
  in.scalars[50] = 0;
  return in;
}

}  // namespace

TEST_CASE("affine pair rounds before the accumulation do not change an MSM's sum") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const PairInputs in = pair_inputs(240, 41);
  const RefPoint expected = msm_test::naive_sum<Bn254G1>(in.points, in.scalars);
  // One round up to more rounds than any bucket needs (the bucket of 120 points halves to
  // one in seven); an inversion per slot, per 5 slots (pairs across buckets) and the default.
  for (std::uint32_t rounds : {1u, 3u, 8u}) {
    for (std::uint32_t pairs : {1u, 5u, 0u}) {
      INFO(rounds << " rounds, " << pairs << " pairs an invocation");
      auto result = msm_test::run_msm<Bn254G1>(device, in.points, in.scalars,
                                               {.affine_rounds = rounds, .affine_pairs = pairs});
      msm_test::check_point(result.point, expected);
    }
  }
  // Windows of 10 bits: 512 buckets a window for 240 points, most of them empty, so that the
  // walks over an invocation's slots, forward and back, step over empty buckets.
  auto sparse = msm_test::run_msm<Bn254G1>(device, in.points, in.scalars,
                                           {.window_bits = 10, .affine_rounds = 2, .affine_pairs = 5});
  msm_test::check_point(sparse.point, expected);
  // With runs of one entry (the bucket's remaining points over several runs), and in
  // batches of windows under a budget.
  auto single = msm_test::run_msm<Bn254G1>(device, in.points, in.scalars, {.run_length = 1, .affine_rounds = 2});
  msm_test::check_point(single.point, expected);
  const curve::MsmOptions rounds{.affine_rounds = 2};
  const curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, in.points.size(), rounds);
  curve::MsmOptions budgeted = rounds;
  budgeted.memory_budget = plan.peak_bytes() / 3;
  auto batched = msm_test::run_msm<Bn254G1>(device, in.points, in.scalars, budgeted);
  CHECK(batched.batches > 1);
  msm_test::check_point(batched.point, expected);
}

TEST_CASE("an MSM over a table takes affine pair rounds, and msm_batch too") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const PairInputs in = pair_inputs(120, 43);
  auto points = device.upload(curve_test::affine_points<Bn254G1>(in.points));
  auto scalars = device.upload(msm_test::scalar_words<Bn254G1>(in.scalars));
  const auto expected = CurveReference<Bn254G1>::affine(msm_test::naive_sum<Bn254G1>(in.points, in.scalars));
  auto table = curve::msm_table<Bn254G1>(device, points, {.window_bits = 6});
  CHECK(curve::msm<Bn254G1>(device, table, scalars, {.affine_rounds = 3}).point == expected);
  std::vector<mpz_class> two = in.scalars;
  two.insert(two.end(), in.scalars.begin(), in.scalars.end());
  auto both = curve::msm_batch<Bn254G1>(device, points, device.upload(msm_test::scalar_words<Bn254G1>(two)),
                                        {.affine_rounds = 1});
  CHECK(both.points == std::vector<curve::Affine<Bn254G1>>{expected, expected});
}

TEST_CASE("an MSM plan counts the affine pair rounds' lists and refuses bad rounds and pairs") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::uint64_t n = 1000;
  const curve::MsmPlan none = curve::msm_plan<Bn254G1>(device, n);
  CHECK(none.affine_rounds == 0);
  CHECK(none.buffer("pair_sums").bytes == 0);
  CHECK(none.buffer("pair_ends").bytes == 0);
  const curve::MsmPlan two = curve::msm_plan<Bn254G1>(device, n, {.affine_rounds = 2});
  CHECK(two.affine_pairs == curve::detail::msm_default_affine_pairs);
  const std::uint64_t entries = n * two.windows_per_batch, slots = std::uint64_t(two.buckets) * two.windows_per_batch;
  const std::uint64_t affine = sizeof(curve::Affine<Bn254G1>);
  // Round r leaves at most entries / 2^r points, plus one per bucket, and never more than
  // the entries.
  CHECK(two.buffer("pair_sums").bytes == std::min(entries, entries / 2 + slots) * affine);
  CHECK(two.buffer("pair_sums_even").bytes == std::min(entries, entries / 4 + slots) * affine);
  CHECK(two.buffer("pair_ends").bytes == slots * 4);
  CHECK(curve::detail::msm_pair_sums_bound(1000, 10, 3) == 135);
  CHECK(curve::detail::msm_pair_sums_bound(1000, 900, 1) == 1000);
  CHECK_THROWS_WITH(curve::msm_plan<Bn254G1>(device, n, {.affine_rounds = 9}),
                    Catch::Contains("affine_rounds must be 0 to 8, not 9"));
  CHECK_THROWS_WITH(curve::msm_plan<Bn254G1>(device, n, {.affine_pairs = 1025}),
                    Catch::Contains("affine_pairs must be 1 to 1024, not 1025"));
}
