// Points as a kernel author uses them: accumulated in a Var under a device loop, passed to
// and returned from the author's callables, built from constants; the errors of bad
// constants; what does not compile; and the module size of one mixed addition and one
// doubling, which the shared device functions keep small.
#include "curve_device_support.hpp"

using namespace sprig;
using curve_test::CurveReference;
using curve_test::RefPoint;

namespace {

using G1 = curve::Bn254G1;
using Bls = curve::Bls12381G1;

// Points of different curves, or the two forms the wrong way round, do not mix.
template <class A, class B>
concept Addable = requires(A a, B b) { a + b; };
static_assert(Addable<curve::XyzzPoint<G1>, curve::AffinePoint<G1>> && Addable<curve::XyzzPoint<G1>, curve::XyzzPoint<G1>>);
static_assert(Addable<curve::XyzzPoint<G1>, Place<curve::Affine<G1>, Access::Read>>);
static_assert(!Addable<curve::XyzzPoint<G1>, curve::AffinePoint<Bls>> && !Addable<curve::XyzzPoint<G1>, curve::XyzzPoint<Bls>>);
static_assert(!Addable<curve::AffinePoint<G1>, curve::XyzzPoint<G1>>);  // the accumulator comes first
// Var<XyzzPoint<C>> is a Var of its host struct.
static_assert(std::is_same_v<Var<curve::XyzzPoint<G1>>, Var<curve::Xyzz<G1>>>);

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("a sum in a Var under a device loop and through an author's callable", "[curve]",
                        curve_test::AllCurves) {
  using Ref = CurveReference<TestType>;
  using X = curve::Xyzz<TestType>;
  using A = curve::Affine<TestType>;
  using Point = curve::XyzzPoint<TestType>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // out[0]: the sum of the affine points by mixed additions; out[1]: of the XYZZ points, each
  // added twice through the callable and once subtracted.
  auto add_twice = callable("add_twice", [](Point a, Point b) -> Point { return a + b + b; });
  auto k = kernel("curve_sum", [&](ReadBuffer<A> points, ReadBuffer<X> points_xyzz, WriteBuffer<A> out) {
    Var<Point> sum = Point::infinity(), twice_minus_once = Point::infinity();
    for_(0u, points.size(), [&](UInt j) {
      sum = Point(sum) + points[j];
      twice_minus_once = add_twice(twice_minus_once, points_xyzz[j]) - Point(points_xyzz[j]);
    });
    out[0] = Point(sum).to_affine();
    out[1] = Point(twice_minus_once).to_affine();
  }, workgroup(1));
  // Random points, then a repeated one, its negation and the point at infinity, so that the
  // running sum meets P + P, P + (-P) and O on the way.
  std::vector<RefPoint> points = Ref::random_points(6, 61);
  points.push_back(points[0]);
  points.push_back(Ref::negate(points[2]));
  points.push_back(RefPoint::at_infinity());
  RefPoint expected = RefPoint::at_infinity();
  for (const RefPoint& p : points) expected = Ref::add(expected, p);
  auto out = device.alloc<A>(2);
  device.run(k, grid(1), device.upload(curve_test::affine_points<TestType>(points)),
             device.upload(curve_test::xyzz_points<TestType>(points, 62)), out);
  curve_test::check_affine<TestType>(device.download(out), {expected, expected}, "sum");
}

TEST_CASE("point constants on the device and the curve check", "[curve]") {
  using Ref = CurveReference<G1>;
  using A = curve::Affine<G1>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto k = kernel("curve_constants", [](ReadBuffer<A> in, WriteBuffer<A> out, WriteBuffer<std::uint32_t> on_curve) {
    curve::AffinePoint<G1> g = curve::AffinePoint<G1>::generator();
    out[0] = g;
    out[1] = curve::AffinePoint<G1>::constant("0x030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3",
                                              "0x15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4");
    out[2] = curve::AffinePoint<G1>::infinity();
    out[3] = curve::XyzzPoint<G1>(g).doubled().to_affine();
    out[4] = select(g == -g, g, -g);
    for (std::uint32_t j = 0; j < 3; ++j)
      on_curve[j] = select(curve::AffinePoint<G1>(in[j]).is_on_curve(), UInt(1u), UInt(0u));
  }, workgroup(1));
  // (1, 3) is not on the curve; (0, 0) is the point at infinity, which counts as on it.
  std::vector<A> in{A::generator(), A{Ref::Field::montgomery(1), Ref::Field::montgomery(3)}, A::infinity()};
  auto out = device.alloc<A>(5);
  auto on_curve = device.alloc<std::uint32_t>(3);
  device.run(k, grid(1), device.upload(in), out, on_curve);
  RefPoint g = Ref::generator();
  curve_test::check_affine<G1>(device.download(out), {g, Ref::twice(g), RefPoint::at_infinity(), Ref::twice(g), Ref::negate(g)},
                               "constants");
  CHECK(device.download(on_curve) == std::vector<std::uint32_t>{1, 0, 1});
}

TEST_CASE("bad point constants are trace errors naming the curve and the problem at the line", "[curve]") {
  std::uint32_t line = 0;
  auto trace = [&](std::string_view x, std::string_view y) {
    return kernel("bad_point", [&](WriteBuffer<curve::Affine<G1>> out) {
      line = std::source_location::current().line() + 1;
      out[0] = curve::AffinePoint<G1>::constant(x, y);
    });
  };
  try {
    trace("1", "3");
    FAIL("no error");
  } catch (const TraceError& e) {
    CHECK_THAT(e.what(), Catch::Contains("bn254_g1: (0x1, 0x3) is not on the curve y^2 = x^3 + 3"));
    CHECK(e.where().line == line);
  }
  CHECK_THROWS_WITH(trace("1", "x"), Catch::Contains("bn254_fq: 'x' is not a number"));
  CHECK_THROWS_WITH(trace(std::string(field::Bn254Base::modulus), "2"), Catch::Contains("is not below the modulus"));
}

TEMPLATE_LIST_TEST_CASE("one mixed addition and one doubling: the module holds each function once", "[curve]",
                        curve_test::LibraryCurves) {
  using X = curve::Xyzz<TestType>;
  using A = curve::Affine<TestType>;
  auto k = kernel("add_and_double", [](ReadBuffer<A> points, Buffer<X> acc) {
    UInt i = global_id().x();
    acc[i] = (curve::XyzzPoint<TestType>(acc[i]) + points[i]).doubled();
  });
  std::vector<std::uint32_t> words = compiler::compile(*k.ir());  // spirv-val runs here
  std::string text = compiler::disassemble(words);
  // main, the mixed addition, the doubling, and the field's product, sum and difference.
  CHECK(count_of(text, " OpFunction ") == 6);
  constexpr std::size_t limbs = field::limb_count<typename TestType::Base>;
  CHECK(count_of(text, "OpUMulExtended") == 2 * limbs * limbs);  // one product's body
  // 67,748 bytes for BN254 and 130,976 for BLS12-381, two thirds of it the product
  // (docs/curves.md).
  CHECK(words.size() * 4 < (limbs == 8 ? 80 : 144) * 1024);
  WARN(TestType::name << ": " << words.size() * 4 << " bytes of SPIR-V");
}
