// Point arithmetic on both backends against the GMP reference, for every curve: mixed and
// full additions, doubling, negation, subtraction, equality and the conversion to affine
// coordinates, over random points (k G, random k) and every exceptional case: P + P,
// P + (-P), O + P, P + O, O + O, doubling O, and on the tiny curve every pair of its 52
// points, which includes doubling the three points with y = 0. Both operands come in XYZZ
// coordinates with random z, so equal points arrive in different coordinates.
#include <cstring>

#include "curve_device_support.hpp"

using namespace sprig;
using curve_test::CurveReference;
using curve_test::RefPoint;

namespace {

// XYZZ results per pair, in blocks of n: P + Q (mixed), P + Q' (full), 2P, -P, P - Q (mixed),
// P - Q' (full); Q' is Q in XYZZ coordinates. The affine buffer holds their conversions,
// then P's. Flags: 1 P == Q', 2 P != Q', 4 P at infinity, 8 Q on the curve, 16 Q == -Q,
// 32 Q at infinity. The conversions run in a device loop, so that the module holds one call
// of to_affine: lavapipe inlines every call, and each costs compile time.
constexpr std::uint32_t results = 6;
const char* const result_names[results] = {"P + Q (mixed)", "P + Q (full)",  "2P",
                                           "-P",            "P - Q (mixed)", "P - Q (full)"};

template <class C>
auto arithmetic_kernel() {
  using X = curve::Xyzz<C>;
  using A = curve::Affine<C>;
  return kernel("curve_arithmetic", [](ReadBuffer<X> p, ReadBuffer<A> q, ReadBuffer<X> q_xyzz, Buffer<X> out,
                                       WriteBuffer<A> affine, WriteBuffer<std::uint32_t> flags) {
    UInt i = global_id().x();
    UInt n = p.size();
    if_(i < n, [&] {
      curve::XyzzPoint<C> a = p[i], c = q_xyzz[i];
      curve::AffinePoint<C> b = q[i];
      curve::XyzzPoint<C> sums[results] = {a + b, a + c, a.doubled(), -a, a - b, a - c};
      for (std::uint32_t r = 0; r < results; ++r) out[r * n + i] = sums[r];
      for_(0u, results + 1u, [&](UInt r) {
        curve::XyzzPoint<C> point = select(r < results, curve::XyzzPoint<C>(out[min(r, UInt(results - 1u)) * n + i]), a);
        affine[r * n + i] = point.to_affine();
      });
      flags[i] = select(a == c, UInt(1u), UInt(0u)) | select(a != c, UInt(2u), UInt(0u)) |
                 select(a.is_infinity(), UInt(4u), UInt(0u)) | select(b.is_on_curve(), UInt(8u), UInt(0u)) |
                 select(b == -b, UInt(16u), UInt(0u)) | select(b.is_infinity(), UInt(32u), UInt(0u));
    });
  }, workgroup(64).names("p", "q", "q_xyzz", "out", "affine", "flags"));
}

template <class C>
struct Pairs {
  std::vector<RefPoint> p, q;
  void add(const RefPoint& a, const RefPoint& b) {
    p.push_back(a);
    q.push_back(b);
  }
};

// Random pairs, then P + P, P + (-P), O + P, P + O, O + O, G + G and G + (-G); on the tiny
// curve, every pair of its points.
template <class C>
Pairs<C> operand_pairs() {
  using Ref = CurveReference<C>;
  Pairs<C> pairs;
  RefPoint o = RefPoint::at_infinity(), g = Ref::generator();
  if constexpr (std::is_same_v<C, curve_test::TinyCurve>) {
    std::vector<RefPoint> all{o};
    for (long x = 0; x < 67; ++x)
      for (long y = 0; y < 67; ++y)
        if (Ref::on_curve({x, y, false})) all.push_back({x, y, false});
    for (const RefPoint& a : all)
      for (const RefPoint& b : all) pairs.add(a, b);
    return pairs;
  }
  std::vector<RefPoint> random = Ref::random_points(16, 11);
  for (std::size_t k = 0; k < random.size(); ++k) pairs.add(random[k], random[(k + 1) % random.size()]);
  for (const RefPoint& a : random) {
    pairs.add(a, a);
    pairs.add(a, Ref::negate(a));
  }
  for (std::size_t k = 0; k < 4; ++k) {
    pairs.add(o, random[k]);
    pairs.add(random[k], o);
  }
  pairs.add(o, o);
  pairs.add(g, g);
  pairs.add(g, Ref::negate(g));
  return pairs;
}

struct Outputs {
  std::vector<std::uint8_t> xyzz, affine;
  std::vector<std::uint32_t> flags;
  friend bool operator==(const Outputs&, const Outputs&) = default;
};

template <class C>
Outputs run_arithmetic(sprig::Device& device, const Pairs<C>& pairs) {
  using X = curve::Xyzz<C>;
  using A = curve::Affine<C>;
  std::size_t n = pairs.p.size();
  auto out = device.alloc<X>(n * results);
  auto affine = device.alloc<A>(n * (results + 1));
  auto flags = device.alloc<std::uint32_t>(n);
  device.run(arithmetic_kernel<C>(), grid(n), device.upload(curve_test::xyzz_points<C>(pairs.p, 21)),
             device.upload(curve_test::affine_points<C>(pairs.q)),
             device.upload(curve_test::xyzz_points<C>(pairs.q, 22)), out, affine, flags);
  auto bytes = [](const auto& v) {
    const auto* data = reinterpret_cast<const std::uint8_t*>(v.data());
    return std::vector<std::uint8_t>(data, data + v.size() * sizeof(v[0]));
  };
  return {bytes(device.download(out)), bytes(device.download(affine)), device.download(flags)};
}

template <class T>
std::vector<T> block(const std::vector<std::uint8_t>& bytes, std::size_t n, std::size_t index) {
  std::vector<T> out(n);
  std::memcpy(out.data(), bytes.data() + index * n * sizeof(T), n * sizeof(T));
  return out;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("point arithmetic matches GMP on both backends (exceptional cases included)", "[curve]",
                        curve_test::AllCurves) {
  using Ref = CurveReference<TestType>;
  test::Backend backend = SPRIG_BACKEND;
  sprig::Device& device = test::device(backend);
  Pairs<TestType> pairs = operand_pairs<TestType>();
  std::size_t n = pairs.p.size();
  Outputs got = run_arithmetic(device, pairs);

  std::vector<std::vector<RefPoint>> expected(results);
  std::vector<std::uint32_t> expected_flags;
  for (std::size_t i = 0; i < n; ++i) {
    const RefPoint &p = pairs.p[i], &q = pairs.q[i];
    RefPoint sum = Ref::add(p, q), difference = Ref::add(p, Ref::negate(q));
    expected[0].push_back(sum);
    expected[1].push_back(sum);
    expected[2].push_back(Ref::twice(p));
    expected[3].push_back(Ref::negate(p));
    expected[4].push_back(difference);
    expected[5].push_back(difference);
    expected_flags.push_back((p == q ? 1u : 2u) | (p.infinity ? 4u : 0u) | 8u | (q == Ref::negate(q) ? 16u : 0u) |
                             (q.infinity ? 32u : 0u));
  }
  for (std::uint32_t r = 0; r < results; ++r) {
    curve_test::check_xyzz<TestType>(block<curve::Xyzz<TestType>>(got.xyzz, n, r), expected[r], result_names[r]);
    curve_test::check_affine<TestType>(block<curve::Affine<TestType>>(got.affine, n, r), expected[r],
                                       result_names[r]);
  }
  curve_test::check_affine<TestType>(block<curve::Affine<TestType>>(got.affine, n, results), pairs.p,
                                     "P.to_affine()");
  CHECK(got.flags == expected_flags);
  // XYZZ coordinates are not unique, so the reference checks them as points; the two
  // backends must also agree on their bits.
  if (backend == test::Backend::Vulkan && test::backend_enabled(test::Backend::Simulator))
    CHECK(run_arithmetic(test::simulator(), pairs) == got);
}
