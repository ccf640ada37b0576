// Batched conversion to affine coordinates (Montgomery's trick) on both backends against
// GMP: buffers of random points with points at infinity among them (first, last, side by
// side), several shares per invocation, an output longer than the input, a buffer of
// points at infinity only, an empty one; the DSL function in an author's kernel, whose
// module holds one inversion; and the host function's errors.
#include "curve_device_support.hpp"

using namespace sprig;
using curve_test::CurveReference;
using curve_test::RefPoint;

namespace {

// `count` random points with the point at infinity at the first two, the middle two and
// the last position.
template <class C>
std::vector<RefPoint> points_with_infinities(std::size_t count, unsigned long seed) {
  std::vector<RefPoint> points = CurveReference<C>::random_points(count, seed);
  for (std::size_t i : {std::size_t(0), std::size_t(1), count / 2, count / 2 + 1, count - 1})
    points[i] = RefPoint::at_infinity();
  return points;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("to_affine converts a buffer with one inversion per invocation", "[curve]",
                        curve_test::AllCurves) {
  using A = curve::Affine<TestType>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  std::size_t n = std::is_same_v<TestType, curve::Bls12381G1> ? 100 : 300;
  std::vector<RefPoint> points = points_with_infinities<TestType>(n, 41);
  auto in = device.upload(curve_test::xyzz_points<TestType>(points, 42));
  for (std::uint32_t per_invocation : {1u, 7u, 32u, 1000u}) {
    INFO(per_invocation << " points per invocation");
    // Two more outputs than inputs, which keep what they held.
    std::vector<A> start(n + 2, A::generator());
    auto out = device.upload(start);
    curve::to_affine(device, in, out, per_invocation);
    std::vector<A> got = device.download(out);
    CHECK(got[n] == A::generator());
    CHECK(got[n + 1] == A::generator());
    got.resize(n);
    curve_test::check_affine<TestType>(got, points, "to_affine");
  }
}

TEST_CASE("to_affine of points at infinity only and of no points", "[curve]") {
  using G1 = curve::Bn254G1;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  std::vector<RefPoint> points(70, RefPoint::at_infinity());
  auto out = device.upload(std::vector<curve::Affine<G1>>(70, curve::Affine<G1>::generator()));
  curve::to_affine(device, device.upload(curve_test::xyzz_points<G1>(points, 1)), out, 8);
  curve_test::check_affine<G1>(device.download(out), points, "to_affine");
  auto none = device.alloc<curve::Xyzz<G1>>(0);
  curve::to_affine(device, none, out);  // records nothing
}

TEST_CASE("batch_to_affine in an author's kernel: one inversion per invocation at any stride", "[curve]") {
  using G1 = curve::Bls12381G1;
  using X = curve::Xyzz<G1>;
  using A = curve::Affine<G1>;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  // Lane 0 converts the even points, lane 1 the odd ones.
  auto k = kernel("batch_to_affine_by_parity", [](ReadBuffer<X> in, Buffer<A> out) {
    UInt lane = global_id().x();
    curve::batch_to_affine(in, out, lane, 2u, (in.size() + 1u - lane) / 2u);
  }, workgroup(2));
  std::string text = compiler::disassemble(compiler::compile(*k.ir()));
  CHECK(count_of(text, "OpFunctionCall %bls12_381_fq_montgomery %bls12_381_fq_pow12") == 1);  // one inversion

  std::vector<RefPoint> points = points_with_infinities<G1>(45, 43);
  auto out = device.alloc<A>(points.size());
  device.run(k, grid(2), device.upload(curve_test::xyzz_points<G1>(points, 44)), out);
  curve_test::check_affine<G1>(device.download(out), points, "batch_to_affine");
}

TEST_CASE("to_affine's errors name the curve and the problem", "[curve]") {
  using G1 = curve::Bn254G1;
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto in = device.alloc<curve::Xyzz<G1>>(10);
  CHECK_THROWS_WITH(curve::to_affine(device, in, device.alloc<curve::Affine<G1>>(9)),
                    "bn254_g1 to_affine: the output holds 9 points, the input 10");
  CHECK_THROWS_WITH(curve::to_affine(device, in, device.alloc<curve::Affine<G1>>(10), 0),
                    "bn254_g1 to_affine: points_per_invocation is 0");
  // 2 * 40000 iterations and 254 of the inversion: beyond lavapipe's loop cap only.
  auto big_share = [&] { curve::to_affine(device, in, device.alloc<curve::Affine<G1>>(10), 40000); };
  if (device.info().quirks.has(Quirk::LoopBackEdgeCap))
    CHECK_THROWS_WITH(big_share(), Catch::StartsWith("bn254_g1 to_affine: 40000 points per invocation take 80254 "
                                                     "loop iterations, above the 60000 that ") &&
                                       Catch::EndsWith(" runs per invocation (lavapipe's loop cap)"));
  else
    CHECK_NOTHROW(big_share());
}
