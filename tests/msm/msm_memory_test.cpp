// The MSM's memory plan: the window rule, the buffers and their bytes, batches of windows
// under a budget (one, two or many give the same point, for one scalar vector or several),
// the refusal of a budget below one window's buffers, the reported peak, and a workspace kept
// across calls. The plans here are unsplit (Endomorphism::Off); msm_endomorphism_test.cpp
// batches split ones.
#include <catch2/catch.hpp>

#include "msm_test_support.hpp"

using namespace sprig;
using curve::Bls12381G1;
using curve::Bn254G1;
using msm_test::RefPoint;

namespace {

constexpr std::uint64_t mib = 1u << 20;
constexpr curve::Endomorphism unsplit = curve::Endomorphism::Off;

// The plan's bytes with `windows` windows of `points` points (0: all n) per batch, for
// `msms` scalar vectors.
std::uint64_t bytes_with(const Device& device, std::uint64_t n, std::uint32_t windows, std::uint64_t points = 0,
                         std::uint32_t window_bits = 0, std::uint32_t msms = 1) {
  const curve::MsmOptions options{.window_bits = window_bits, .endomorphism = unsplit};
  curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, n, options, msms);
  std::uint64_t sum = 0;
  for (const curve::MsmBuffer& b : curve::detail::msm_buffers<Bn254G1>(device.info(), plan, windows, points ? points : n))
    sum += b.bytes;
  return sum;
}

}  // namespace

TEST_CASE("the MSM window size grows with n as the work count says") {
  CHECK(curve::msm_window_bits<Bn254G1>(1) == 2);
  CHECK(curve::msm_window_bits<Bn254G1>(1u << 10) == 8);
  CHECK(curve::msm_window_bits<Bn254G1>(1u << 17) == 13);
  CHECK(curve::msm_window_bits<Bn254G1>(1u << 20) == 16);
  CHECK(curve::msm_window_bits<Bn254G1>(1u << 24) == 20);
}

// At 2^18 and 2^19 points the least work is c = 15, whose 17 windows (BN254) or 18
// (BLS12-381) take two batches of at most 16; c = 16 does 8% and 2% more additions in one.
TEST_CASE("the MSM window size takes one batch where that costs at most 10% more work") {
  CHECK(curve::detail::msm_batch_windows(1u << 18) == 16);
  for (std::uint32_t n : {1u << 18, 1u << 19}) {
    CHECK(curve::msm_window_bits<Bn254G1>(n) == 16);
    CHECK(curve::msm_window_bits<Bls12381G1>(n) == 16);
    CHECK(curve::msm_plan<Bn254G1>(test::device(SPRIG_BACKEND), n).batches == 1);
  }
  // 2^17 points keep c = 13 in two batches: one batch would need c = 16, 30% more work.
  CHECK(curve::msm_window_bits<Bn254G1>(1u << 17) == 13);
  // Just under 2^17 a batch takes 2^21 entries, 18 windows of 115,097 points: c = 15's 17
  // windows fit one, and c = 13's 20 would not.
  CHECK(curve::detail::msm_batch_windows(115097) == 18);
  CHECK(curve::msm_window_bits<Bn254G1>(115097) == 15);
}

// The plan's shape at 2^17 points, and what the MSM holds on the device as the memory planner
// places its batches' buffers (recorded, not run): within 34 MiB with the inputs.
TEST_CASE("an MSM of 2^17 BN254 points fits 34 MiB with its 12 MiB of inputs") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::uint64_t n = 1u << 17;
  curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, n);
  const std::uint64_t inputs = n * (sizeof(curve::Affine<Bn254G1>) + sizeof(curve::MsmScalar<Bn254G1>));
  CHECK(inputs == 12 * mib);
  CHECK(plan.window_bits == 13);
  CHECK(plan.windows == 20);             // 20 * 13 = 260 bits cover r's 254 and one more
  CHECK(plan.windows_per_batch == 16);  // 16 windows of the points a batch
  CHECK(plan.batches == 2);
  CHECK(plan.buffer("digits").bytes == 16 * n * 4);
  CHECK(plan.buffer("entries").bytes == 16 * n * 4);
  CHECK(plan.buffer("buckets").bytes == 16 * 4096 * 128);
  CHECK(plan.buffer("partial_sums").bytes == 16 * n / 64 * 128);
  for (const curve::MsmBuffer& b : plan.buffers) UNSCOPED_INFO(b.name << ": " << b.bytes << " bytes");
  auto points = device.alloc<curve::Affine<Bn254G1>>(n);
  auto scalars = device.alloc<curve::MsmScalar<Bn254G1>>(n);
  curve::detail::MsmResultBuffers<Bn254G1> kept(device, plan);
  auto sequence = device.sequence();
  curve::detail::record_msm<Bn254G1>(device, sequence, plan, kept, std::span(&points, 1), scalars, 0);
  const std::uint64_t held = sequence.memory_plan().scratch_bytes + kept.window_sums.bytes() + kept.results.bytes() +
                             kept.affine_results.bytes();
  UNSCOPED_INFO("held " << held << " bytes besides the inputs");
  CHECK(held <= plan.peak_bytes());
  CHECK(held + inputs <= 34 * mib);
}

TEST_CASE("an MSM reports its window size, batches and the plan's peak") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(100, 20);
  auto scalars = msm_test::random_scalars<Bn254G1>(100, 21);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, 100);
  CHECK(result.window_bits == plan.window_bits);
  CHECK(result.batches == 1);
  // The memory planner shares bytes between buffers whose lives do not overlap.
  CHECK(result.peak_device_bytes <= plan.peak_bytes());
  CHECK(result.input_device_bytes == 100 * (64 + 32));
}

TEST_CASE("budgets giving one, two and many batches of windows give the same MSM") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::uint64_t n = 150;
  msm_test::Progression<Bn254G1> inputs(n, 22);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 23);
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  const std::uint32_t windows = curve::msm_plan<Bn254G1>(device, n, {.endomorphism = unsplit}).windows;
  struct Case {
    std::uint64_t budget;
    std::uint32_t batches;
  };
  std::vector<Case> cases{{0, 1},
                          {bytes_with(device, n, (windows + 1) / 2), 2},
                          {bytes_with(device, n, 3), (windows + 2) / 3},
                          {bytes_with(device, n, 1), windows}};
  std::vector<curve::Affine<Bn254G1>> points;
  for (const Case& c : cases) {
    const curve::MsmOptions options{.memory_budget = c.budget, .endomorphism = unsplit};
    auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, options);
    INFO("budget " << c.budget);
    CHECK(result.batches == c.batches);
    CHECK((c.budget == 0 || result.peak_device_bytes <= c.budget));
    points.push_back(result.point);
  }
  for (const auto& p : points) CHECK(p == points[0]);
  msm_test::check_point(points[0], expected);
}

// Windows of 6 bits: 32 buckets, so that the points' digits and entries, not the buckets,
// are what a batch's size changes. A window's batches of points fill one set of buckets,
// the later ones adding their sums into it, and the set is reduced once.
TEST_CASE("budgets below one window of all points split the points into batches, with the same MSM") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::uint64_t n = 2100;
  const std::uint32_t c = 6;
  msm_test::Progression<Bn254G1> inputs(n, 40);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 41);
  for (std::size_t i = 1000; i < 1100; ++i) scalars[i] = 77;  // one bucket across two batches of points
  scalars[5] = 0;
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  const curve::MsmOptions unbounded{.window_bits = c, .endomorphism = unsplit};
  const std::uint32_t windows = curve::msm_plan<Bn254G1>(device, n, unbounded).windows;
  struct Case {
    std::uint64_t budget, points_per_batch, point_batches;
  };
  // Just below one window of all points: two batches of 1050; below that, three of 1024
  // (halved, but to no fewer than 1024 points), the last of 52.
  for (const Case& batching : {Case{bytes_with(device, n, 1, 0, c) - 1, 1050, 2},
                               Case{bytes_with(device, n, 1, 1050, c) - 1, 1024, 3}}) {
    INFO("budget " << batching.budget);
    const curve::MsmOptions options{.window_bits = c, .memory_budget = batching.budget, .endomorphism = unsplit};
    curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, n, options);
    CHECK(plan.windows_per_batch == 1);
    CHECK(plan.points_per_batch == batching.points_per_batch);
    auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, options);
    CHECK(result.batches == batching.point_batches * windows);
    CHECK(result.peak_device_bytes <= batching.budget);
    msm_test::check_point(result.point, expected);
  }
  const std::uint64_t fewest = bytes_with(device, n, 1, 1024, c);
  CHECK_THROWS_WITH(
      msm_test::run_msm<Bn254G1>(device, inputs.points, scalars,
                                 {.window_bits = c, .memory_budget = fewest - 1, .endomorphism = unsplit}),
      Catch::Contains("2100 points in windows of 6 bits ask for " + std::to_string(fewest) +
                      " bytes of temporaries with one window of 1024 points per batch"));
}

// msm_batch keeps every vector's window sums until one launch of Horner's rule combines
// them all, after the last vector's last batch: batches of windows, and of points (whose
// later batches add into their window's buckets), must land in the right vector's.
TEST_CASE("msm_batch under budgets of many batches sums each vector") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::uint64_t n = 2100;
  const std::uint32_t c = 6, vectors = 3;
  msm_test::Progression<Bn254G1> inputs(n, 50);
  auto scalars = msm_test::scalar_vectors(inputs, vectors, 51);
  auto points = device.upload(curve_test::affine_points<Bn254G1>(inputs.points));
  auto words = device.upload(msm_test::scalar_words<Bn254G1>(scalars.all));
  const curve::MsmPlan whole =
      curve::msm_plan<Bn254G1>(device, n, {.window_bits = c, .endomorphism = unsplit}, vectors);
  CHECK(whole.buffer("window_sums").bytes == std::uint64_t(vectors) * whole.windows * sizeof(curve::Xyzz<Bn254G1>));
  struct Case {
    std::uint64_t budget;
    std::uint32_t batches;  // per vector
  };
  // Three windows of all points a batch; one window of half the points.
  for (const Case& batching : {Case{bytes_with(device, n, 3, 0, c, vectors), (whole.windows + 2) / 3},
                               Case{bytes_with(device, n, 1, 1050, c, vectors), 2 * whole.windows}}) {
    const std::uint64_t budget = batching.budget;
    INFO("budget " << budget);
    auto result = curve::msm_batch<Bn254G1>(device, points, words,
                                            {.window_bits = c, .memory_budget = budget, .endomorphism = unsplit});
    CHECK(result.batches == batching.batches);
    CHECK(result.peak_device_bytes <= budget);
    REQUIRE(result.points.size() == vectors);
    for (std::uint32_t v = 0; v < vectors; ++v) msm_test::check_point(result.points[v], scalars.sums[v]);
  }
}

TEST_CASE("an MSM refuses a budget below its buffers for one window, naming the bytes") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::uint64_t n = 1000;
  const std::uint64_t needed = bytes_with(device, n, 1);
  msm_test::Progression<Bn254G1> inputs(3, 24);
  auto points = device.upload(std::vector<curve::Affine<Bn254G1>>(n, curve::Affine<Bn254G1>::generator()));
  auto scalars = device.upload(std::vector<curve::MsmScalar<Bn254G1>>(n));
  const curve::MsmOptions too_small{.memory_budget = needed - 1, .endomorphism = unsplit};
  CHECK_THROWS_WITH(curve::msm<Bn254G1>(device, points, scalars, too_small),
                    Catch::Contains("1000 points in windows of 8 bits ask for " + std::to_string(needed) +
                                    " bytes of temporaries with one window of 1000 points per batch: the budget allows " +
                                    std::to_string(needed - 1) + " bytes; the largest buffer is 'buckets'"));
  CHECK_THROWS_AS(curve::msm<Bn254G1>(device, points, scalars, {.memory_budget = 1}), std::invalid_argument);
}

TEST_CASE("an MSM plan splits points whose buffers of one window exceed the device's largest binding") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::uint64_t limit = device.info().max_buffer_bytes;
  // Two bytes a point: one window's digits alone (4 bytes a point) are twice the limit.
  const std::uint64_t n = limit / 2;
  if (n >= (std::uint64_t(1) << 30)) return;  // a device binding 2 GiB or more: n is refused for its size
  curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, n);
  CHECK(plan.points_per_batch <= n / 2);
  for (const curve::MsmBuffer& b : plan.buffers) CHECK(b.bytes <= limit);
  // Buckets are not split: a window of 2^23 of them is refused where it exceeds the binding.
  const std::uint64_t buckets = (std::uint64_t(1) << 23) * sizeof(curve::Xyzz<Bn254G1>);
  if (buckets <= limit) return;
  CHECK_THROWS_WITH(curve::msm_plan<Bn254G1>(device, 1000, {.window_bits = 24}),
                    Catch::Contains("the buffer 'buckets' needs " + std::to_string(buckets) + " bytes, above the " +
                                    std::to_string(limit) + " bytes that " + device.name() + " binds at once"));
}

// A prover's MSMs over one workspace: the temporaries are allocated by the first call (and by
// a larger one later), reused by every call after it, and the sums stay right.
TEST_CASE("MSMs given one workspace allocate their temporaries only when the plan grows") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  Workspace workspace;
  const curve::MsmOptions options{.workspace = workspace, .endomorphism = unsplit};
  auto run = [&](std::uint64_t n, unsigned long seed, std::uint64_t budget = 0) {
    msm_test::Progression<Bn254G1> inputs(n, seed);
    auto scalars = msm_test::random_scalars<Bn254G1>(n, seed + 1);
    curve::MsmOptions with_budget = options;
    with_budget.memory_budget = budget;
    auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, with_budget);
    INFO("n " << n << ", budget " << budget);
    msm_test::check_point(result.point, msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars));
    return result;
  };
  auto first = run(300, 31);
  CHECK(workspace.allocations() == 1);
  // The workspace holds the plan's scratch: the peak less the window sums and results kept.
  const curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, 300, options);
  CHECK(workspace.bytes() == first.peak_device_bytes - plan.buffer("window_sums").bytes -
                                 sizeof(curve::Xyzz<Bn254G1>) - sizeof(curve::Affine<Bn254G1>));
  const std::uint64_t held = workspace.bytes();
  run(300, 33);  // other points and scalars, the same plan
  run(40, 35);   // a smaller plan fits the memory kept
  run(300, 37, bytes_with(device, 300, 2));  // batches under a budget, in the same memory
  CHECK(workspace.allocations() == 1);
  CHECK(workspace.bytes() == held);
  run(1200, 39);  // a larger plan grows it once
  CHECK(workspace.allocations() == 2);
  CHECK(workspace.bytes() > held);
  run(1200, 41);
  CHECK(workspace.allocations() == 2);
}
