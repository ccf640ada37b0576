// curve::msm on both backends against GMP: small MSMs against the naive sum of products,
// every input the bucket method treats specially (n = 1, zero and equal scalars, repeated
// points, points at infinity, scalars at and above r), a larger MSM against the sum by
// discrete logarithms, the batch form, and the errors of bad input.
#include <catch2/catch.hpp>

#include "msm_split_support.hpp"

using namespace sprig;
using curve::Bls12381G1;
using curve::Bn254G1;
using msm_test::CurveReference;
using msm_test::RefPoint;

TEST_CASE("an MSM of a few points is the sum of their double-and-add products") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  std::size_t n = GENERATE(1, 2, 3, 7, 64);
  msm_test::Progression<Bn254G1> inputs(n, 100 + n);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 200 + n);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  INFO(n << " points");
  msm_test::check_point(result.point, msm_test::naive_sum<Bn254G1>(inputs.points, scalars));
}

// One test case with a section per behaviour: a driver compiles BLS12-381's kernels for
// tens of seconds (docs/msm.md), once per process, and each test case is a process of its own.
TEST_CASE("BLS12-381 MSMs match GMP") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  using Ref = CurveReference<Bls12381G1>;
  SECTION("an MSM of a few points is the sum of their double-and-add products") {
    for (std::size_t n : {1, 3, 7}) {
      msm_test::Progression<Bls12381G1> inputs(n, 100 + n);
      auto scalars = msm_test::random_scalars<Bls12381G1>(n, 200 + n);
      auto result = msm_test::run_msm<Bls12381G1>(device, inputs.points, scalars);
      INFO(n << " points");
      msm_test::check_point(result.point, msm_test::naive_sum<Bls12381G1>(inputs.points, scalars));
      // The same scalars in Montgomery form.
      auto points = device.upload(curve_test::affine_points<Bls12381G1>(inputs.points));
      auto montgomery = device.upload(field::to_montgomery(msm_test::scalar_words<Bls12381G1>(scalars)));
      CHECK(curve::msm<Bls12381G1>(device, points, montgomery).point == result.point);
    }
  }
  SECTION("an MSM reduces scalars at or above r modulo r") {
    mpz_class r = Ref::r(), top = (mpz_class(1) << 256) - 1;
    std::vector<mpz_class> scalars{r, r + 1, 2 * r + 5, top, r - 1};
    msm_test::Progression<Bls12381G1> inputs(scalars.size(), 13);
    auto result = msm_test::run_msm<Bls12381G1>(device, inputs.points, scalars);
    msm_test::check_point(result.point, msm_test::naive_sum<Bls12381G1>(inputs.points, scalars));
  }
  SECTION("msm_batch sums each scalar vector over the same points") {
    const std::size_t n = 9, vectors = 2;
    msm_test::Progression<Bls12381G1> inputs(n, 16);
    auto scalars = msm_test::scalar_vectors(inputs, vectors, 17);
    auto points = device.upload(curve_test::affine_points<Bls12381G1>(inputs.points));
    auto result =
        curve::msm_batch<Bls12381G1>(device, points, device.upload(msm_test::scalar_words<Bls12381G1>(scalars.all)));
    REQUIRE(result.points.size() == vectors);
    for (std::size_t v = 0; v < vectors; ++v) msm_test::check_point(result.points[v], scalars.sums[v]);
  }
  SECTION("MSMs of scalars split by the endomorphism are the sums of the products") {
    msm_split_test::check_split<Bls12381G1>(device);
    const std::size_t n = 11;
    msm_test::Progression<Bls12381G1> inputs(n, 21);
    inputs.points[4] = RefPoint::at_infinity();
    auto scalars = msm_split_test::special_scalars<Bls12381G1>(n, 22);
    const curve::MsmOptions split{.endomorphism = curve::Endomorphism::On};
    CHECK(curve::msm_plan<Bls12381G1>(device, n, split).scalar_parts == 2);
    auto result = msm_test::run_msm<Bls12381G1>(device, inputs.points, scalars, split);
    msm_test::check_point(result.point, msm_test::naive_sum<Bls12381G1>(inputs.points, scalars));
  }
  SECTION("an MSM over a table of window multiples in parts is the sum of the products") {
    const std::size_t n = 7;
    msm_test::Progression<Bls12381G1> inputs(n, 19);
    inputs.points[3] = RefPoint::at_infinity();
    auto scalars = msm_test::random_scalars<Bls12381G1>(n, 20);
    auto points = device.upload(curve_test::affine_points<Bls12381G1>(inputs.points));
    // Windows of 8 bits (32 cover BLS12-381's 255-bit r and one more), parts of 10 windows.
    auto table = curve::msm_table<Bls12381G1>(
        device, points, {.window_bits = 8, .part_bytes = 10 * n * sizeof(curve::Affine<Bls12381G1>)});
    CHECK(table.windows == 32);
    CHECK(table.parts.size() == 4);
    auto last = device.download(table.parts[3]);
    msm_test::check_point(last[1 * n + 1], Ref::multiply(inputs.points[1], mpz_class(1) << (8 * 31)));  // window 31
    auto result = curve::msm<Bls12381G1>(device, table, device.upload(msm_test::scalar_words<Bls12381G1>(scalars)));
    msm_test::check_point(result.point, msm_test::naive_sum<Bls12381G1>(inputs.points, scalars));
  }
}

TEST_CASE("an MSM of 257 points, not a multiple of any run or window, is the sum of the products") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(257, 3);
  auto scalars = msm_test::random_scalars<Bn254G1>(257, 4);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  msm_test::check_point(result.point, msm_test::naive_sum<Bn254G1>(inputs.points, scalars));
}

TEST_CASE("an MSM with every scalar 0 is the point at infinity") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(20, 5);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, std::vector<mpz_class>(20, 0));
  CHECK(result.point == curve::Affine<Bn254G1>::infinity());
}

TEST_CASE("an MSM with some scalars 0 leaves those points out") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(30, 6);
  auto scalars = msm_test::random_scalars<Bn254G1>(30, 7);
  for (std::size_t i = 0; i < 30; i += 3) scalars[i] = 0;
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  msm_test::check_point(result.point, msm_test::naive_sum<Bn254G1>(inputs.points, scalars));
}

TEST_CASE("an MSM with every scalar equal puts every point of a window in one bucket") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // 300 points: each window's one bucket spans five runs of the accumulation.
  msm_test::Progression<Bn254G1> inputs(300, 8);
  mpz_class k = msm_test::random_scalars<Bn254G1>(1, 9)[0];
  std::vector<mpz_class> scalars(300, k);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  msm_test::check_point(result.point, msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars));
}

TEST_CASE("an MSM of one point repeated adds equal points into a bucket (the doubling case)") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  RefPoint g = CurveReference<Bn254G1>::generator();
  std::vector<RefPoint> points(40, g);
  std::vector<mpz_class> scalars(40, 5);
  for (std::size_t i = 0; i < 40; i += 2) scalars[i] = 7;
  // 20 * 5 + 20 * 7 = 240: 240 G.
  auto result = msm_test::run_msm<Bn254G1>(device, points, scalars);
  msm_test::check_point(result.point, CurveReference<Bn254G1>::multiply(g, 240));
}

TEST_CASE("Horner's rule doubles where the shifted sum is the next window's, and cancels its negation") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // In windows of 8 bits, scalars 1 and 2^8 put 2^8 G in window 0's sum and G in window
  // 1's: Horner's rule shifts G to 2^8 G and adds the same point.
  RefPoint g = CurveReference<Bn254G1>::generator();
  RefPoint shifted = CurveReference<Bn254G1>::multiply(g, 256);
  auto same = msm_test::run_msm<Bn254G1>(device, {shifted, g}, {1, 256}, {.window_bits = 8});
  msm_test::check_point(same.point, CurveReference<Bn254G1>::multiply(g, 512));
  auto opposite = msm_test::run_msm<Bn254G1>(device, {CurveReference<Bn254G1>::negate(shifted), g}, {1, 256},
                                             {.window_bits = 8});
  CHECK(opposite.point == curve::Affine<Bn254G1>::infinity());
}

TEST_CASE("a team step of more field products than a team has lanes is a trace error") {
  using A = curve::Affine<Bn254G1>;
  auto trace = [](std::size_t count) {
    return kernel(
        "team_step",
        [count](Buffer<A> points) {
          curve::detail::AffineParts<Bn254G1> p = curve::detail::parts_of(Expr<A>(points[0u]));
          curve::detail::TeamProducts<Bn254G1> products(1, std::source_location::current());
          products(curve::detail::ProductPairs<Bn254G1>(count, {p.x, p.y}));
        },
        workgroup(curve::detail::msm_team_lanes));
  };
  CHECK_NOTHROW(trace(curve::detail::msm_team_lanes));
  CHECK_THROWS_WITH(trace(curve::detail::msm_team_lanes + 1),
                    Catch::Contains("a team step of 9 field products: a team's 8 lanes take 1 to 8"));
  CHECK_THROWS_AS(trace(0), TraceError);
}

TEST_CASE("an MSM of a point and its negation with equal scalars is the point at infinity") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  RefPoint p = CurveReference<Bn254G1>::multiply(CurveReference<Bn254G1>::generator(), 12345);
  std::vector<RefPoint> points{p, CurveReference<Bn254G1>::negate(p)};
  mpz_class k = msm_test::random_scalars<Bn254G1>(1, 10)[0];
  auto result = msm_test::run_msm<Bn254G1>(device, points, {k, k});
  CHECK(result.point == curve::Affine<Bn254G1>::infinity());
}

TEST_CASE("points at infinity among an MSM's inputs add nothing") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(25, 11);
  for (std::size_t i = 0; i < 25; i += 4) inputs.points[i] = RefPoint::at_infinity();
  auto scalars = msm_test::random_scalars<Bn254G1>(25, 12);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  msm_test::check_point(result.point, msm_test::naive_sum<Bn254G1>(inputs.points, scalars));
}

TEST_CASE("an MSM reduces scalars at or above r modulo r") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  using Ref = CurveReference<Bn254G1>;
  mpz_class r = Ref::r(), top = (mpz_class(1) << 256) - 1;
  std::vector<mpz_class> scalars{r, r + 1, 2 * r + 5, 5 * r + 9, top, r - 1};
  msm_test::Progression<Bn254G1> inputs(scalars.size(), 13);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  // The naive sum multiplies by the integers as given: the same points, as the group has order r.
  msm_test::check_point(result.point, msm_test::naive_sum<Bn254G1>(inputs.points, scalars));
}

TEST_CASE("an MSM of one point with scalar r - 1 is its negation") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  using Ref = CurveReference<Bn254G1>;
  RefPoint p = Ref::multiply(Ref::generator(), 777);
  auto result = msm_test::run_msm<Bn254G1>(device, {p}, {Ref::r() - 1});
  msm_test::check_point(result.point, Ref::negate(p));
}

TEST_CASE("an MSM takes scalars in Montgomery form, as field libraries hold them") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  using Ref = CurveReference<Bn254G1>;
  const std::size_t n = 70;
  msm_test::Progression<Bn254G1> inputs(n, 63);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 64);
  scalars[3] = 0;
  scalars[4] = 1;
  scalars[5] = Ref::r() - 1;
  const RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  auto points = device.upload(curve_test::affine_points<Bn254G1>(inputs.points));
  const auto montgomery = field::to_montgomery(msm_test::scalar_words<Bn254G1>(scalars));
  static_assert(std::is_same_v<decltype(montgomery)::value_type, curve::MsmMontgomeryScalar<Bn254G1>>);
  auto result = curve::msm<Bn254G1>(device, points, device.upload(montgomery));
  msm_test::check_point(result.point, expected);
  // Two vectors over the same points, and over a table of window multiples.
  std::vector<curve::MsmMontgomeryScalar<Bn254G1>> two = montgomery;
  two.insert(two.end(), montgomery.begin(), montgomery.end());
  auto both = curve::msm_batch<Bn254G1>(device, points, device.upload(two));
  CHECK(both.points == std::vector<curve::Affine<Bn254G1>>{result.point, result.point});
  auto table = curve::msm_table<Bn254G1>(device, points, {.window_bits = 5});
  CHECK(curve::msm<Bn254G1>(device, table, device.upload(montgomery)).point == result.point);
  // Unreduced Montgomery words, k R mod r plus up to the most multiples of r below 2^256
  // (five for BN254), are the same scalars: the product by 1 reduces any 256-bit value.
  std::vector<curve::MsmMontgomeryScalar<Bn254G1>> unreduced = montgomery;
  const mpz_class top = (mpz_class(1) << 256) - 1;
  for (std::size_t i = 0; i < unreduced.size(); ++i) {
    mpz_class value = field_test::to_mpz(unreduced[i].limbs);
    mpz_class most = (top - value) / Ref::r();
    unreduced[i].limbs = field_test::to_limbs<8>(value + (i % 2 ? most : mpz_class(1)) * Ref::r());
  }
  CHECK(unreduced != montgomery);
  for (auto limbs : {field::ProductLimbs::Bits32, field::ProductLimbs::Bits64, field::ProductLimbs::Bits29}) {
    if (limbs != field::ProductLimbs::Bits32 && !device.info().supported.int64) continue;
    INFO("product limbs " << int(limbs));
    CHECK(curve::msm<Bn254G1>(device, points, device.upload(unreduced), {.product_limbs = limbs}).point ==
          result.point);
  }
  // Mismatched lengths are refused as for canonical scalars.
  auto fewer = device.upload(std::vector(montgomery.begin(), montgomery.end() - 1));
  CHECK_THROWS_WITH(curve::msm<Bn254G1>(device, points, fewer), Catch::Contains("70 points but 69 scalars"));
}

TEST_CASE("an MSM of thousands of points is the generator times the sum of k_i s_i") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // The simulator interprets every lane: a smaller n keeps it within seconds.
  const bool vulkan = device.info().backend == "vulkan";
  std::size_t n = vulkan ? (1u << 14) + 5 : (1u << 10) + 5;
  msm_test::Progression<Bn254G1> inputs(n, 14);
  auto scalars = msm_test::random_scalars<Bn254G1>(n, 15);
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars);
  INFO(n << " points, windows of " << result.window_bits << " bits");
  msm_test::check_point(result.point, msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars));
}

TEST_CASE("msm_batch sums each scalar vector over the same points") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  const std::size_t n = 33, vectors = 3;
  msm_test::Progression<Bn254G1> inputs(n, 16);
  auto vectors_of_scalars = msm_test::scalar_vectors(inputs, vectors, 17);
  auto points = device.upload(curve_test::affine_points<Bn254G1>(inputs.points));
  auto scalars = device.upload(msm_test::scalar_words<Bn254G1>(vectors_of_scalars.all));
  auto result = curve::msm_batch<Bn254G1>(device, points, scalars);
  REQUIRE(result.points.size() == vectors);
  for (std::size_t v = 0; v < vectors; ++v) msm_test::check_point(result.points[v], vectors_of_scalars.sums[v]);
}

TEST_CASE("an MSM of no points is the point at infinity") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto points = device.alloc<curve::Affine<Bn254G1>>(0);
  auto scalars = device.alloc<curve::MsmScalar<Bn254G1>>(0);
  auto result = curve::msm<Bn254G1>(device, points, scalars);
  CHECK(result.point == curve::Affine<Bn254G1>::infinity());
  CHECK(result.batches == 0);
  CHECK(result.peak_device_bytes == 0);
  // Nothing is planned, so no budget is too small.
  CHECK(curve::msm<Bn254G1>(device, points, scalars, {.memory_budget = 1}).point == curve::Affine<Bn254G1>::infinity());
}

TEST_CASE("an MSM of points and scalars of different lengths throws") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto points = device.upload(std::vector<curve::Affine<Bn254G1>>(3, curve::Affine<Bn254G1>::generator()));
  auto scalars = device.upload(std::vector<curve::MsmScalar<Bn254G1>>(2));
  CHECK_THROWS_WITH(curve::msm<Bn254G1>(device, points, scalars),
                    Catch::Contains("bn254_g1 msm: 3 points but 2 scalars"));
  CHECK_THROWS_WITH(curve::msm_batch<Bn254G1>(device, points, scalars),
                    Catch::Contains("2 scalars are not a whole number of vectors of 3"));
}

TEST_CASE("an MSM's window size can be chosen, from 2 to 24 bits") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(50, 18);
  auto scalars = msm_test::random_scalars<Bn254G1>(50, 19);
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  for (std::uint32_t c : {2u, 5u, 9u}) {
    auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.window_bits = c});
    CHECK(result.window_bits == c);
    msm_test::check_point(result.point, expected);
  }
  CHECK_THROWS_WITH(msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.window_bits = 25}),
                    Catch::Contains("window_bits must be 2 to 24, not 25"));
}

TEST_CASE("an MSM's run length (entries per accumulating invocation) does not change its sum") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(150, 25);
  auto scalars = msm_test::random_scalars<Bn254G1>(150, 26);
  // Buckets of 100 entries: in runs of one entry each spans two chunks of 64 runs.
  for (std::size_t i = 0; i < 100; ++i) scalars[i] = 12345;
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  for (std::uint32_t run_length : {1u, 7u, 64u, 1024u}) {
    INFO("runs of " << run_length);
    auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.run_length = run_length});
    msm_test::check_point(result.point, expected);
  }
  CHECK_THROWS_WITH(msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.run_length = 1025}),
                    Catch::Contains("run_length must be 1 to 1024, not 1025"));
  // The default: runs of 64, of 128 for batches of 2^24 entries and more.
  CHECK(curve::msm_plan<Bn254G1>(device, 150).run_length == 64);
  CHECK(curve::detail::msm_run_length(std::uint64_t(1) << 23) == 64);
  CHECK(curve::detail::msm_run_length((std::uint64_t(1) << 24) - 1) == 64);
  CHECK(curve::detail::msm_run_length(std::uint64_t(1) << 24) == 128);
}

TEST_CASE("an MSM's accumulation workgroup size does not change its sum") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(150, 31);
  auto scalars = msm_test::random_scalars<Bn254G1>(150, 32);
  for (std::size_t i = 0; i < 100; ++i) scalars[i] = 54321;  // a bucket over many runs
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  const std::uint32_t most = device.info().max_workgroup_invocations;
  std::vector<std::uint32_t> workgroups{32u, most};
  if (most > 512) workgroups.push_back(512u);
  for (std::uint32_t workgroup : workgroups) {
    for (std::uint32_t run_length : {1u, 7u}) {
      INFO("workgroups of " << workgroup << ", runs of " << run_length);
      auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars,
                                               {.run_length = run_length, .accumulation_workgroup = workgroup});
      msm_test::check_point(result.point, expected);
    }
  }
  for (std::uint32_t wrong : {16u, 96u, 2 * most})
    CHECK_THROWS_WITH(msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.accumulation_workgroup = wrong}),
                      Catch::Contains("accumulation_workgroup must be a power of two from 32 to " +
                                      std::to_string(most)) &&
                          Catch::Contains("not " + std::to_string(wrong)));
  // The default: 512 from 2^16 runs a batch over BN254's points (from 2^18 over a table)
  // where the device allows it, else 64.
  const std::uint64_t many = std::uint64_t(1) << 18;
  CHECK(curve::msm_plan<Bn254G1>(device, 150).accumulation_workgroup == 64);
  CHECK(curve::msm_plan<Bn254G1>(device, many).accumulation_workgroup == (most >= 512 ? 512 : 64));
  CHECK(curve::msm_plan<curve::Bls12381G1>(device, many).accumulation_workgroup == 64);
  DeviceInfo info = device.info();
  info.max_workgroup_invocations = 1024;
  CHECK(curve::detail::msm_accumulation_workgroup(std::uint64_t(1) << 16, 8, false, info) == 512);
  CHECK(curve::detail::msm_accumulation_workgroup((std::uint64_t(1) << 16) - 1, 8, false, info) == 64);
  CHECK(curve::detail::msm_accumulation_workgroup(std::uint64_t(1) << 20, 12, false, info) == 64);
  // Over a table of window multiples from 2^18 runs a batch.
  CHECK(curve::detail::msm_accumulation_workgroup((std::uint64_t(1) << 18) - 1, 8, true, info) == 64);
  CHECK(curve::detail::msm_accumulation_workgroup(std::uint64_t(1) << 18, 8, true, info) == 512);
  CHECK(curve::detail::msm_accumulation_workgroup(std::uint64_t(1) << 20, 12, true, info) == 64);
  info.max_workgroup_invocations = 256;
  CHECK(curve::detail::msm_accumulation_workgroup(std::uint64_t(1) << 20, 8, false, info) == 64);
}

TEST_CASE("an MSM gives the same sum with 32-, 64- and 29-bit field product limbs") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(90, 29);
  auto scalars = msm_test::random_scalars<Bn254G1>(90, 30);
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  auto narrow = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.product_limbs = field::ProductLimbs::Bits32});
  auto wide = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.product_limbs = field::ProductLimbs::Bits64});
  auto unsaturated =
      msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.product_limbs = field::ProductLimbs::Bits29});
  msm_test::check_point(narrow.point, expected);
  CHECK(wide.point == narrow.point);
  CHECK(unsaturated.point == narrow.point);
  // Auto takes 29-bit limbs where the device has Int64, whatever the field and the kind of
  // device; without Int64, asking for 64- or 29-bit limbs is refused.
  DeviceInfo without = device.info();
  without.supported.int64 = false;
  CHECK(field::product_limbs_for(without, 8) == field::ProductLimbs::Bits32);
  CHECK(field::product_limbs_for(without, 12) == field::ProductLimbs::Bits32);
  CHECK(field::product_limbs_for(device.info(), 8) ==
        (device.info().supported.int64 ? field::ProductLimbs::Bits29 : field::ProductLimbs::Bits32));
  DeviceInfo gpu = device.info(), cpu = device.info(), simulator = device.info();
  gpu.supported.int64 = cpu.supported.int64 = simulator.supported.int64 = true;
  gpu.kind = DeviceKind::Discrete;
  cpu.kind = DeviceKind::Cpu;
  simulator.kind = DeviceKind::Simulator;
  for (const DeviceInfo& info : {gpu, cpu, simulator}) {
    CHECK(field::product_limbs_for(info, 8) == field::ProductLimbs::Bits29);
    CHECK(field::product_limbs_for(info, 12) == field::ProductLimbs::Bits29);  // BLS12-381's base field
  }
  CHECK_THROWS_WITH(field::product_limbs_for(without, 8, field::ProductLimbs::Bits64),
                    Catch::Contains("64-bit integers (shaderInt64)"));
  CHECK_THROWS_WITH(field::product_limbs_for(without, 8, field::ProductLimbs::Bits29),
                    Catch::Contains("29-bit limbs in 64-bit sums need 64-bit integers"));
}

TEST_CASE("an MSM's segment length (buckets per reducing invocation) does not change its sum") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  msm_test::Progression<Bn254G1> inputs(120, 27);
  auto scalars = msm_test::random_scalars<Bn254G1>(120, 28);
  RefPoint expected = msm_test::sum_by_logs<Bn254G1>(inputs.logs, scalars);
  // 2^(7 - 1) = 64 buckets per window: from 64 segments of one bucket (six levels of the
  // tree) to one segment of all of them (no tree); 1024 is cut to the window's 64.
  for (std::uint32_t segment_length : {0u, 1u, 2u, 16u, 64u, 1024u}) {
    INFO("segments of " << segment_length);
    auto result =
        msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.window_bits = 7, .segment_length = segment_length});
    msm_test::check_point(result.point, expected);
  }
  // 24 windows of 1024 one-bucket segments: the tree's two lowest levels (12,288 and 6,144
  // pairs) take one invocation a pair, the rest run over teams of lanes in blocks of 32
  // groups, 256 groups a window at level 2, then 8.
  auto result = msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.window_bits = 11, .segment_length = 1});
  msm_test::check_point(result.point, expected);
  CHECK(curve::msm_plan<Bn254G1>(device, 120, {.window_bits = 7, .segment_length = 1024}).segment_length == 64);
  // The default: the shortest segments that keep a batch within 2^16 invocations, at least 4.
  CHECK(curve::msm_plan<Bn254G1>(device, 120, {.window_bits = 7}).segment_length == 4);
  CHECK(curve::detail::msm_segment_length(1u << 19, 4) == 32);
  CHECK(curve::detail::msm_segment_length(1u << 15, 4) == 4);
  CHECK(curve::detail::msm_segment_length(2, 1) == 2);
  for (std::uint32_t bad : {3u, 2048u}) {
    CHECK_THROWS_WITH(msm_test::run_msm<Bn254G1>(device, inputs.points, scalars, {.segment_length = bad}),
                      Catch::Contains("segment_length must be a power of two from 1 to 1024, not " +
                                      std::to_string(bad)));
  }
}
