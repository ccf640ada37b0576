// Scalar multiplication on both backends against GMP: the scalars 0, 1, 2, r - 1, r, r + 1,
// 2r + 1 and 2^256 - 1 times the generator and the point at infinity, random scalars times
// random points, from affine and from XYZZ points. The scalar is the integer given, not
// reduced modulo r: on the tiny curve, points outside the generator's group (of orders 2
// and 26) show it, where r P != O.
#include "curve_device_support.hpp"

using namespace sprig;
using curve_test::CurveReference;
using curve_test::RefPoint;

namespace {

constexpr std::size_t scalar_words = 8;

// out[i] = k_i P_i from P_i affine, out[n + i] the same from P_i in XYZZ coordinates.
template <class C>
auto multiply_kernel() {
  using X = curve::Xyzz<C>;
  using A = curve::Affine<C>;
  return kernel("scalar_multiply", [](ReadBuffer<A> points, ReadBuffer<X> points_xyzz,
                                      ReadBuffer<std::uint32_t> scalars, WriteBuffer<A> out) {
    UInt i = global_id().x();
    UInt n = points.size();
    if_(i < n, [&] {
      std::array<UInt, scalar_words> k{UInt(0u), UInt(0u), UInt(0u), UInt(0u), UInt(0u), UInt(0u), UInt(0u), UInt(0u)};
      for (std::uint32_t j = 0; j < scalar_words; ++j) k[j] = scalars[i * std::uint32_t(scalar_words) + j];
      out[i] = curve::scalar_multiply(curve::AffinePoint<C>(points[i]), k).to_affine();
      out[n + i] = curve::scalar_multiply(curve::XyzzPoint<C>(points_xyzz[i]), k).to_affine();
    });
  }, workgroup(32).names("points", "points_xyzz", "scalars", "out"));
}

template <class C>
std::pair<std::vector<RefPoint>, std::vector<mpz_class>> products() {
  using Ref = CurveReference<C>;
  mpz_class r = Ref::r(), all_ones = (mpz_class(1) << 256) - 1;
  std::vector<RefPoint> points;
  std::vector<mpz_class> scalars;
  auto add = [&](const RefPoint& p, const mpz_class& k) {
    points.push_back(p);
    scalars.push_back(k);
  };
  for (const mpz_class& k : std::vector<mpz_class>{0, 1, 2, r - 1, r, r + 1, 2 * r + 1, all_ones}) {
    add(Ref::generator(), k);
    add(RefPoint::at_infinity(), k);
  }
  field_test::Random random(51);
  std::vector<RefPoint> random_points = Ref::random_points(8, 52);
  for (const RefPoint& p : random_points) add(p, random.below(r));
  for (const RefPoint& p : random_points) add(p, random.below(all_ones));
  if constexpr (std::is_same_v<C, curve_test::TinyCurve>) {
    // (1, 0) has order 2, (3, 19) order 26: neither is in the group of order 13.
    for (const RefPoint& p : {RefPoint{1, 0, false}, RefPoint{3, 19, false}})
      for (const mpz_class& k : std::vector<mpz_class>{2, 3, 4, r, r + 1, all_ones}) add(p, k);
  }
  return {points, scalars};
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("scalar multiplication matches GMP on both backends", "[curve]", curve_test::AllCurves) {
  using Ref = CurveReference<TestType>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto [points, scalars] = products<TestType>();
  for (const RefPoint& p : points) REQUIRE(Ref::on_curve(p));
  std::vector<std::uint32_t> words;
  std::vector<RefPoint> expected;
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto k = curve_test::scalar_words<scalar_words>(scalars[i]);
    words.insert(words.end(), k.begin(), k.end());
    expected.push_back(Ref::multiply(points[i], scalars[i]));
  }
  std::size_t n = points.size();
  auto out = device.alloc<curve::Affine<TestType>>(2 * n);
  device.run(multiply_kernel<TestType>(), grid(n), device.upload(curve_test::affine_points<TestType>(points)),
             device.upload(curve_test::xyzz_points<TestType>(points, 53)), device.upload(words), out);
  std::vector<curve::Affine<TestType>> got = device.download(out);
  using Vector = std::vector<curve::Affine<TestType>>;
  curve_test::check_affine<TestType>(Vector(got.begin(), got.begin() + n), expected, "k P from affine P");
  curve_test::check_affine<TestType>(Vector(got.begin() + n, got.end()), expected, "k P from XYZZ P");
}

TEST_CASE("the reference: r P is not O for a point outside the group of order r", "[curve]") {
  using Ref = CurveReference<curve_test::TinyCurve>;
  // The tiny curve's group is Z/2 x Z/2 x Z/13: (3, 19) has order 26, and 13 (3, 19) is the
  // point of order 2 in its group, (29, 0).
  RefPoint p{3, 19, false};
  REQUIRE(Ref::on_curve(p));
  CHECK(Ref::multiply(p, 26) == RefPoint::at_infinity());
  CHECK(Ref::multiply(p, Ref::r()) == RefPoint{29, 0, false});
}
