// curve::msm over a table of window multiples (msm_table.hpp), on both backends against
// GMP: the table's points themselves, sums equal to the plain MSM's and to the reference for
// the inputs the bucket method treats specially, the batch form, budgets giving batches of
// windows and of points, and the errors of bad input.
#include <catch2/catch.hpp>

#include "msm_test_support.hpp"

using namespace sprig;
using curve::Bn254G1;
using msm_test::CurveReference;
using msm_test::RefPoint;

namespace {

template <class C>
curve::MsmTable<C> table_of(Device& device, const std::vector<RefPoint>& points, std::uint32_t window_bits = 0,
                            std::uint64_t part_bytes = 0) {
  return curve::msm_table<C>(device, device.upload(curve_test::affine_points<C>(points)),
                             {.window_bits = window_bits, .part_bytes = part_bytes});
}

template <class C>
curve::MsmResult<C> run_table_msm(Device& device, const curve::MsmTable<C>& table, const std::vector<mpz_class>& scalars,
                                  const curve::MsmOptions& options = {}) {
  return curve::msm<C>(device, table, device.upload(msm_test::scalar_words<C>(scalars)), options);
}

}  // namespace

// In one part, and in parts of 16 windows (the last of 5): 2^(c w) P_i at (w % 16) n + i
// of part w / 16.
TEST_CASE("an MSM table holds 2^(c w) P_i for every window w") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  using Ref = CurveReference<Bn254G1>;
  msm_test::Progression<Bn254G1> inputs(5, 60);
  inputs.points[2] = RefPoint::at_infinity();
  const std::uint64_t window_bytes = 5 * sizeof(curve::Affine<Bn254G1>);
  std::uint64_t part_bytes = GENERATE_COPY(std::uint64_t(0), 16 * window_bytes + 7);
  auto table = table_of<Bn254G1>(device, inputs.points, 7, part_bytes);
  CHECK(table.points == 5);
  CHECK(table.window_bits == 7);
  CHECK(table.windows == 37);  // 37 * 7 = 259 bits cover r's 254 and one more
  const std::uint32_t per_part = part_bytes ? 16 : 37;
  CHECK(table.windows_per_part == per_part);
  REQUIRE(table.parts.size() == (part_bytes ? 3u : 1u));
  CHECK(table.bytes() == 37 * window_bytes);
  for (std::uint32_t w = 0; w < table.windows; ++w) {
    auto part = device.download(table.parts[w / per_part]);
    mpz_class factor = mpz_class(1) << (7 * w);
    for (std::size_t i = 0; i < 5; ++i) {
      INFO("window " << w << ", point " << i);
      msm_test::check_point(part[(w % per_part) * 5 + i], Ref::multiply(inputs.points[i], factor));
    }
  }
}

TEST_CASE("an MSM over a table is the plain MSM's sum") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  std::size_t n = GENERATE(1, 3, 64, 257);
  std::uint32_t c = GENERATE(0u, 4u, 11u);
  INFO(n << " points, windows of " << c << " bits (0: the table's choice)");
  msm_test::Progression<Bn254G1> inputs(n, 300 + n);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 400 + n);
  auto table = table_of<Bn254G1>(device, inputs.points, c);
  auto result = run_table_msm<Bn254G1>(device, table, scalars);
  CHECK(result.window_bits == table.window_bits);
  CHECK(result.input_device_bytes == table.bytes() + n * 32);
  msm_test::check_point(result.point, msm_test::naive_sum<Bn254G1>(inputs.points, scalars));
  CHECK(result.point == msm_test::run_msm<Bn254G1>(device, inputs.points, scalars).point);
}

TEST_CASE("an MSM over a table takes the inputs the buckets treat specially") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  using Ref = CurveReference<Bn254G1>;
  const std::size_t n = 200;
  msm_test::Progression<Bn254G1> inputs(n, 70);
  inputs.points[9] = RefPoint::at_infinity();
  inputs.points[11] = inputs.points[10];                  // a repeated point
  inputs.points[13] = Ref::negate(inputs.points[12]);     // a point and its negation
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 71);
  for (std::size_t i = 20; i < 120; ++i) scalars[i] = 4242;  // one bucket in every window, over runs
  scalars[10] = scalars[11];
  scalars[12] = scalars[13];
  scalars[30] = 0;
  scalars[31] = Ref::r() + 5;   // reduced modulo r
  scalars[32] = Ref::r() - 1;
  auto table = table_of<Bn254G1>(device, inputs.points, 6);
  std::vector<mpz_class> reduced = scalars;
  for (auto& k : reduced) k %= Ref::r();
  RefPoint expected = msm_test::naive_sum<Bn254G1>(inputs.points, reduced);
  msm_test::check_point(run_table_msm<Bn254G1>(device, table, scalars).point, expected);
  for (std::uint32_t run_length : {1u, 7u}) {
    INFO("runs of " << run_length);
    msm_test::check_point(run_table_msm<Bn254G1>(device, table, scalars, {.run_length = run_length}).point, expected);
  }
  std::vector<mpz_class> zeros(n, 0);
  CHECK(run_table_msm<Bn254G1>(device, table, zeros).point == curve::Affine<Bn254G1>::infinity());
}

TEST_CASE("an MSM over a table in parts binds each batch's part, with the same sum") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::size_t n = 300;
  msm_test::Progression<Bn254G1> inputs(n, 95);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 96);
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  // Windows of 9 bits: 29 of them, in parts of 4 (the last of 1).
  auto table = table_of<Bn254G1>(device, inputs.points, 9, 4 * n * sizeof(curve::Affine<Bn254G1>));
  REQUIRE(table.parts.size() == 8);
  curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, table);
  CHECK(plan.windows_per_part == 4);
  CHECK(plan.windows_per_batch == 4);
  CHECK(plan.batches == 8);
  auto result = run_table_msm<Bn254G1>(device, table, scalars);
  CHECK(result.batches == 8);
  msm_test::check_point(result.point, expected);
  // A budget for three windows a batch: batches of 3 do not span parts (2 a part), and all
  // add into the one set of buckets.
  std::uint64_t three = 0;
  for (const curve::MsmBuffer& b : curve::detail::msm_buffers<Bn254G1>(device.info(), plan, 3, n)) three += b.bytes;
  CHECK(curve::msm_plan<Bn254G1>(device, table, {.memory_budget = three}).windows_per_batch == 3);
  auto budgeted = run_table_msm<Bn254G1>(device, table, scalars, {.memory_budget = three});
  CHECK(budgeted.batches == 7 * 2 + 1);
  msm_test::check_point(budgeted.point, expected);
  // Workgroups of 512, which the plan takes over large tables, add the later parts alike.
  if (device.info().max_workgroup_invocations >= 512) {
    auto wide = run_table_msm<Bn254G1>(device, table, scalars, {.accumulation_workgroup = 512});
    msm_test::check_point(wide.point, expected);
  }
}

TEST_CASE("msm_batch over a table sums each scalar vector") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::size_t n = 40, vectors = 3;
  msm_test::Progression<Bn254G1> inputs(n, 80);
  auto scalars = msm_test::scalar_vectors(inputs, vectors, 81);
  auto table = table_of<Bn254G1>(device, inputs.points, 9);
  auto result = curve::msm_batch<Bn254G1>(device, table, device.upload(msm_test::scalar_words<Bn254G1>(scalars.all)));
  REQUIRE(result.points.size() == vectors);
  for (std::size_t v = 0; v < vectors; ++v) msm_test::check_point(result.points[v], scalars.sums[v]);
}

// Batches over a table share the one set of buckets: the first stores its sums there, the
// others add theirs, and the set is reduced once.
TEST_CASE("budgets give an MSM over a table batches of windows and of points, with the same sum") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::size_t n = 2100;
  msm_test::Progression<Bn254G1> inputs(n, 90);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 91);
  for (std::size_t i = 1000; i < 1100; ++i) scalars[i] = 77;  // one bucket across both batches of points
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  auto table = table_of<Bn254G1>(device, inputs.points, 6);
  const curve::MsmPlan whole = curve::msm_plan<Bn254G1>(device, table);
  CHECK(whole.fixed_base);
  CHECK(whole.batches == 1);
  CHECK(whole.buffer("buckets").bytes == 32 * 128);  // one set of 2^5 buckets for all windows
  CHECK(whole.buffer("window_sums").bytes == 128);
  // A budget just below one window of all points: batches of 1050 points.
  std::uint64_t one_window = 0;
  for (const curve::MsmBuffer& b : curve::detail::msm_buffers<Bn254G1>(device.info(), whole, 1, n))
    one_window += b.bytes;
  for (std::uint64_t budget : {whole.peak_bytes() / 2, whole.peak_bytes() / 8, one_window - 1}) {
    INFO("budget " << budget);
    curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, table, {.memory_budget = budget});
    auto result = run_table_msm<Bn254G1>(device, table, scalars, {.memory_budget = budget});
    CHECK(result.batches == plan.batches);
    CHECK(result.batches > 1);
    CHECK(result.peak_device_bytes <= budget);
    msm_test::check_point(result.point, expected);
  }
  curve::MsmPlan split = curve::msm_plan<Bn254G1>(device, table, {.memory_budget = one_window - 1});
  CHECK(split.windows_per_batch == 1);
  CHECK(split.points_per_batch == 1050);
  CHECK(split.batches == 2 * table.windows);
}

TEST_CASE("an MSM table and an MSM over one refuse bad input, naming it") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto none = device.alloc<curve::Affine<Bn254G1>>(0);
  CHECK_THROWS_WITH(curve::msm_table<Bn254G1>(device, none), Catch::Contains("bn254_g1 msm_table: no points"));
  auto points = device.upload(std::vector<curve::Affine<Bn254G1>>(3, curve::Affine<Bn254G1>::generator()));
  CHECK_THROWS_WITH(curve::msm_table<Bn254G1>(device, points, {.window_bits = 25}),
                    Catch::Contains("window_bits must be 2 to 24, not 25"));
  CHECK_THROWS_WITH(curve::msm_table<Bn254G1>(device, points, {.part_bytes = 100}),
                    Catch::Contains("3 points make windows of 192 bytes, above the 100 bytes a part may hold"));
  auto table = curve::msm_table<Bn254G1>(device, points, {.window_bits = 5});
  auto two = device.upload(std::vector<curve::MsmScalar<Bn254G1>>(2));
  CHECK_THROWS_WITH(curve::msm<Bn254G1>(device, table, two),
                    Catch::Contains("bn254_g1 msm over a table: 3 points but 2 scalars"));
  CHECK_THROWS_WITH(curve::msm_batch<Bn254G1>(device, table, two),
                    Catch::Contains("2 scalars are not a whole, non-zero number of vectors of the table's 3 points"));
  auto three = device.upload(std::vector<curve::MsmScalar<Bn254G1>>(3));
  CHECK_THROWS_WITH(curve::msm<Bn254G1>(device, table, three, {.window_bits = 6}),
                    Catch::Contains("window_bits 6, but the table holds windows of 5 bits"));
  CHECK_THROWS_WITH(curve::msm<Bn254G1>(device, curve::MsmTable<Bn254G1>{}, three),
                    Catch::Contains("the table is empty"));
}

// A simulator binding 4 KiB: a window of 22 points takes 1,408 bytes, so parts hold two.
TEST_CASE("an MSM table's parts stay within the device's largest binding") {
  sim::Options options;
  options.max_buffer_bytes = 4096;
  sim::Device small(options);
  const std::size_t n = 22;
  msm_test::Progression<Bn254G1> inputs(n, 97);
  auto table = curve::msm_table<Bn254G1>(small, small.upload(curve_test::affine_points<Bn254G1>(inputs.points)),
                                         {.window_bits = 24});
  CHECK(table.windows == 11);
  CHECK(table.windows_per_part == 2);
  CHECK(table.parts.size() == 6);
  for (const auto& part : table.parts) CHECK(part.bytes() <= 4096);
  auto last = small.download(table.parts[5]);
  msm_test::check_point(last[3], CurveReference<Bn254G1>::multiply(inputs.points[3], mpz_class(1) << 240));
}

TEST_CASE("the table's window size minimises its mixed additions") {
  CHECK(curve::msm_table_window_bits<Bn254G1>(1) == 4);
  CHECK(curve::msm_table_window_bits<Bn254G1>(1u << 10) == 11);
  CHECK(curve::msm_table_window_bits<Bn254G1>(1u << 20) == 20);
}
