// MSMs with scalars split by the curve's endomorphism (MsmOptions::endomorphism), on both
// backends against GMP: the curves' constants (beta, lambda, the split's lattice), the
// host's point multiples that check beta against lambda, the device's split of scalars
// against the same rounding done in GMP, and split MSMs over every input the bucket method
// treats specially, in batches, in the batch form, where the split does not fit and the MSM
// runs without it, for a curve whose beta goes with the other lambda, and over secp256k1;
// and where Endomorphism::Auto splits.
#include <catch2/catch.hpp>

#include "msm_split_support.hpp"

using namespace sprig;
using curve::Bls12381G1;
using curve::Bn254G1;
using msm_test::CurveReference;
using msm_test::RefPoint;
using msm_split_test::basis;
using msm_split_test::E;
using msm_split_test::lambda;
using msm_split_test::special_scalars;

TEST_CASE("the endomorphisms' beta and lambda agree, and the split's lattice is short", "[curve]") {
  auto check = []<class C>(C) {
    using Ref = CurveReference<C>;
    INFO(C::name);
    const mpz_class p = Ref::p(), r = Ref::r(), l = lambda<C>(), beta(std::string(C::endomorphism_beta));
    CHECK((beta * beta % p) * beta % p == 1);
    CHECK(beta != 1);
    CHECK((l * l + l + 1) % r == 0);
    // phi(P) = (beta x, y) = lambda P for the generator and random points of the group.
    std::vector<RefPoint> points = Ref::random_points(4, 5);
    points.push_back(Ref::generator());
    for (const RefPoint& point : points)
      CHECK(Ref::multiply(point, l) == RefPoint{beta * point.x % p, point.y, false});
    auto [a1, b1, a2, b2] = basis<C>();
    CHECK((a1 + b1 * l) % r == 0);
    CHECK((a2 + b2 * l) % r == 0);
    CHECK(abs(a1 * b2 - a2 * b1) == r);
    // Short: both vectors below 2^129, and the bound on the halves about half r's bits.
    for (const mpz_class& x : {a1, b1, a2, b2}) CHECK(abs(x) < (mpz_class(1) << 129));
    CHECK(E<C>::split_bits <= 128);
  };
  check(Bn254G1{});
  check(Bls12381G1{});
  check(msm_split_test::Secp256k1{});
  // BN254's halves fit 126 bits, so at c = 16 a split scalar has 8 windows instead of 16.
  CHECK(E<Bn254G1>::split_bits == 126);
  CHECK(E<Bls12381G1>::split_bits == 127);
}

// BN254 with the beta that goes with the other lambda: a definition the compiler accepts
// (each constant is a cube root of unity) and the first split MSM refuses.
struct Bn254WithOtherBeta : Bn254G1 {
  static constexpr std::string_view name = "bn254_other_beta";
  static constexpr std::string_view endomorphism_beta =
      "0x30644e72e131a0295e6dd9e7e0acccb0c28f069fbb966e3de4bd44e5607cfd48";
};

TEST_CASE("the host's point multiples are GMP's", "[curve]") {
  using Ref = CurveReference<Bn254G1>;
  using K = curve::CurveConstants<Bn254G1>;
  field_test::Random random(11);
  const mpz_class r = Ref::r();
  for (const mpz_class& k : std::vector<mpz_class>{1, 2, 3, r - 1, random.below(r), random.below(r)}) {
    INFO("k = " << k.get_str(16));
    const RefPoint expected = Ref::multiply(Ref::generator(), k);
    const curve::Affine<Bn254G1> affine = CurveReference<Bn254G1>::affine(expected);
    auto multiple = curve::detail::multiply_constant<field::Bn254Base>(K::generator_x, K::generator_y,
                                                                         curve_test::scalar_words<8>(k));
    CHECK(curve::detail::equals_affine<field::Bn254Base>(multiple, affine.x.limbs, affine.y.limbs));
    CHECK(curve::detail::equals_affine<field::Bn254Base>(multiple, K::generator_x, K::generator_y) == (k == 1));
  }
  // r G and 0 G are the point at infinity, which equals no affine point.
  for (const mpz_class& k : std::vector<mpz_class>{0, r})
    CHECK(field::detail::is_zero(curve::detail::multiply_constant<field::Bn254Base>(
                                     K::generator_x, K::generator_y, curve_test::scalar_words<8>(k))
                                     .z));
}

TEST_CASE("a curve whose beta goes with the other lambda refuses to split, naming it") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::size_t n = 5;
  msm_test::Progression<Bn254G1> inputs(n, 95);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 96);
  CHECK_THROWS_WITH(curve::msm_plan<Bn254WithOtherBeta>(device, n, {.endomorphism = curve::Endomorphism::On}),
                    Catch::Contains("bn254_other_beta: the endomorphism's beta and lambda do not go together"));
  auto points = device.upload(curve_test::affine_points<Bn254WithOtherBeta>(inputs.points));
  auto scalar_buffer = device.upload(msm_test::scalar_words<Bn254WithOtherBeta>(scalars));
  CHECK_THROWS_AS(
      curve::msm<Bn254WithOtherBeta>(device, points, scalar_buffer, {.endomorphism = curve::Endomorphism::On}),
      std::logic_error);
  // Auto would split 5 points: the same refusal.
  CHECK_THROWS_AS(curve::msm<Bn254WithOtherBeta>(device, points, scalar_buffer), std::logic_error);
  // Unsplit, its MSMs are BN254's.
  msm_test::check_point(
      curve::msm<Bn254WithOtherBeta>(device, points, scalar_buffer, {.endomorphism = curve::Endomorphism::Off}).point,
                        msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars));
}

TEST_CASE("the device splits scalars into halves that recombine modulo r, as GMP rounds them") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_split_test::check_split<Bn254G1>(device);
}

TEST_CASE("an MSM of split scalars is the sum of the products, for every special input") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const curve::MsmOptions split{.endomorphism = curve::Endomorphism::On};
  for (std::size_t n : {1, 3, 97}) {
    msm_test::Progression<Bn254G1> inputs(n, 40 + n);
    auto scalars = special_scalars<Bn254G1>(n, 50 + n);
    if (n == 97) {
      inputs.points[70] = RefPoint::at_infinity();
      inputs.points[71] = inputs.points[72];  // a repeated point
      scalars[71] = scalars[72];
      inputs.points[73] = CurveReference<Bn254G1>::negate(inputs.points[74]);  // a point and its negation
      scalars[73] = scalars[74];
    }
    INFO(n << " points");
    const curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, n, split);
    CHECK(plan.scalar_parts == 2);
    const RefPoint expected = msm_test::naive_sum<Bn254G1>(inputs.points, scalars);
    auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, split);
    msm_test::check_point(result.point, expected);
    // Windows of 8 bits: 16 cover the halves' 126 bits and one more, against 32 unsplit.
    const curve::MsmOptions narrow_split{.window_bits = 8, .endomorphism = curve::Endomorphism::On};
    CHECK(curve::msm_plan<Bn254G1>(device, n, narrow_split).windows == 16);
    auto narrow = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, narrow_split);
    msm_test::check_point(narrow.point, expected);
    // Scalars in Montgomery form take the same split.
    auto points = device.upload(curve_test::affine_points<Bn254G1>(inputs.points));
    auto montgomery = device.upload(field::to_montgomery(msm_test::scalar_words<Bn254G1>(scalars)));
    CHECK(curve::msm<Bn254G1>(device, points, montgomery, split).point == result.point);
  }
}

TEST_CASE("split-scalar MSMs in batches of windows and of points, and in the batch form, give the same sums") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::size_t n = 2100;  // batches of points hold 1024 at least
  msm_test::Progression<Bn254G1> inputs(n, 60);
  auto scalars = special_scalars<Bn254G1>(n, 61);
  const RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  const curve::MsmOptions split{.window_bits = 6, .endomorphism = curve::Endomorphism::On};
  const curve::MsmPlan whole = curve::msm_plan<Bn254G1>(device, n, split);
  REQUIRE(whole.scalar_parts == 2);
  REQUIRE(whole.batches == 1);
  // A budget of the split points and a third of the rest: batches of windows. The split
  // points and 60% of one window of all points: batches of points too.
  const std::uint64_t images = whole.buffer("split_points").bytes;
  std::uint64_t one_window = 0;
  for (const curve::MsmBuffer& b : curve::detail::msm_buffers<Bn254G1>(device.info(), whole, 1, n))
    one_window += b.bytes;
  for (std::uint64_t budget : {images + (whole.peak_bytes() - images) / 3, images + (one_window - images) * 6 / 10}) {
    curve::MsmOptions options = split;
    options.memory_budget = budget;
    const curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, n, options);
    INFO("budget " << budget << ": " << plan.batches << " batches of " << plan.windows_per_batch << " windows of "
                   << plan.points_per_batch << " points");
    CHECK(plan.scalar_parts == 2);
    CHECK(plan.batches > 1);
    auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, options);
    CHECK(result.peak_device_bytes <= budget);
    msm_test::check_point(result.point, expected);
    if (budget < one_window) CHECK(plan.points_per_batch < n);
  }
  // Twice in one workspace: the split points are a transient like the rest.
  curve::MsmOptions kept = split;
  kept.workspace = Workspace();
  for (int call = 0; call < 2; ++call)
    msm_test::check_point(msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, kept).point, expected);
  CHECK(kept.workspace->allocations() == 1);
  // Three scalar vectors over the same points and their images.
  auto vectors = msm_test::scalar_vectors(inputs, 3, 62);
  auto points = device.upload(curve_test::affine_points<Bn254G1>(inputs.points));
  auto batch = curve::msm_batch<Bn254G1>(device, points, device.upload(msm_test::scalar_words<Bn254G1>(vectors.all)),
                                         {.endomorphism = curve::Endomorphism::On});
  REQUIRE(batch.points.size() == 3);
  for (std::size_t v = 0; v < 3; ++v) msm_test::check_point(batch.points[v], vectors.sums[v]);
}

TEST_CASE("an MSM runs without the split where its points' images do not fit, or over a table") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::size_t n = 400;
  msm_test::Progression<Bn254G1> inputs(n, 70);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 71);
  const RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  // A budget that holds the unsplit plan in batches of one window but not the 2n points
  // of the split one.
  const curve::MsmPlan unsplit =
      curve::msm_plan<Bn254G1>(device, n, {.window_bits = 6, .endomorphism = curve::Endomorphism::Off});
  std::uint64_t budget = 0;
  for (const curve::MsmBuffer& b : curve::detail::msm_buffers<Bn254G1>(device.info(), unsplit, 1, n)) budget += b.bytes;
  REQUIRE(budget < 2 * n * sizeof(curve::Affine<Bn254G1>));
  const curve::MsmOptions options{
      .window_bits = 6, .memory_budget = budget, .endomorphism = curve::Endomorphism::On};
  const curve::MsmPlan plan = curve::msm_plan<Bn254G1>(device, n, options);
  CHECK(plan.scalar_parts == 1);
  CHECK(plan.windows_per_batch == 1);
  msm_test::check_point(msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, options).point, expected);
  // A table's windows need no Horner's rule and share one reduction: the option is ignored.
  auto points = device.upload(curve_test::affine_points<Bn254G1>(inputs.points));
  auto table = curve::msm_table<Bn254G1>(device, points, {.window_bits = 8});
  CHECK(curve::msm_plan<Bn254G1>(device, table, {.endomorphism = curve::Endomorphism::On}).scalar_parts == 1);
  auto over_table = curve::msm<Bn254G1>(device, table, device.upload(msm_test::scalar_words<Bn254G1>(scalars)),
                                        {.endomorphism = curve::Endomorphism::On});
  msm_test::check_point(over_table.point, expected);
}

TEST_CASE("secp256k1, whose r fills 256 bits, splits its scalars and sums its MSMs, split or not") {
  using msm_split_test::Secp256k1;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_split_test::check_split<Secp256k1>(device);
  for (std::size_t n : {1, 5, 40}) {
    msm_test::Progression<Secp256k1> inputs(n, 80 + n);
    auto scalars = special_scalars<Secp256k1>(n, 90 + n);
    const RefPoint expected = msm_test::naive_sum<Secp256k1>(inputs.points, scalars);
    INFO(n << " points");
    for (std::uint32_t c : {0u, 16u}) {
      for (bool split : {false, true}) {
        INFO("c = " << c << (split ? ", split" : ""));
        const curve::MsmOptions options{.window_bits = c,
                                        .endomorphism = split ? curve::Endomorphism::On : curve::Endomorphism::Off};
        CHECK(curve::msm_plan<Secp256k1>(device, n, options).scalar_parts == (split ? 2u : 1u));
        msm_test::check_point(msm_test::run_msm<Secp256k1>(device, inputs.points, scalars, options).point, expected);
      }
    }
  }
}

// Auto splits up to msm_split_largest_points points where the split plan's temporaries are
// at most msm_split_most_memory times the unsplit plan's, and where the split plan fits.
TEST_CASE("Endomorphism::Auto splits small MSMs, but not where it would cost half the memory again") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto parts = [&](std::uint64_t n, curve::MsmOptions options = {}) {
    return curve::msm_plan<Bn254G1>(device, n, options).scalar_parts;
  };
  for (std::uint64_t log_n : {0, 10, 16, 17, 18, 20, 21}) {
    const std::uint64_t n = std::uint64_t(1) << log_n;
    const curve::MsmPlan split = curve::msm_plan<Bn254G1>(device, n, {.endomorphism = curve::Endomorphism::On});
    const curve::MsmPlan unsplit = curve::msm_plan<Bn254G1>(device, n, {.endomorphism = curve::Endomorphism::Off});
    INFO("2^" << log_n << " points: " << split.peak_bytes() << " bytes split, " << unsplit.peak_bytes() << " unsplit");
    CHECK(parts(n) == (curve::detail::msm_split_pays(split, unsplit) ? 2u : 1u));
  }
  CHECK(parts(1) == 2);
  CHECK(parts(1u << 16) == 2);
  // 2^17 points would take 16 MiB of split points and one batch instead of two: unsplit,
  // the MSM keeps to its 34 MiB (msm_memory_test.cpp).
  CHECK(parts(1u << 17) == 1);
  CHECK(parts((1u << 20) + 1) == 1);
  // A budget that holds one window of the unsplit plan but not the 2n split points: Auto
  // takes the unsplit plan in batches.
  const std::uint64_t n = 1000;
  const curve::MsmPlan unsplit = curve::msm_plan<Bn254G1>(device, n, {.endomorphism = curve::Endomorphism::Off});
  std::uint64_t one_window = 0;
  for (const curve::MsmBuffer& b : curve::detail::msm_buffers<Bn254G1>(device.info(), unsplit, 1, n))
    one_window += b.bytes;
  REQUIRE(one_window < 2 * n * sizeof(curve::Affine<Bn254G1>));
  const curve::MsmOptions tight{.memory_budget = one_window};
  CHECK(parts(n, tight) == 1);
  msm_test::Progression<Bn254G1> inputs(n, 97);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 98);
  auto point_buffer = device.upload(curve_test::affine_points<Bn254G1>(inputs.points));
  auto result = curve::msm<Bn254G1>(device, point_buffer, device.upload(msm_test::scalar_words<Bn254G1>(scalars)), tight);
  CHECK(result.peak_device_bytes <= tight.memory_budget);
  msm_test::check_point(result.point, msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars));
}
