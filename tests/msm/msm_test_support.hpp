// What the MSM tests share: points whose discrete logarithms are known, the two GMP
// references (the naive sum of double-and-add products, and the generator times the sum
// of k_i s_i for points s_i G), and one MSM run on a device from reference values.
#pragma once

#include <sprig/stdlib/curve/msm.hpp>

#include "curve_device_support.hpp"

namespace msm_test {

using curve_test::CurveReference;
using curve_test::RefPoint;

// Points s_i G with s_i = a + i d mod r for random a, d: one affine addition per point, so
// thousands cost milliseconds, and any MSM over them is (sum_i k_i s_i mod r) G.
template <class C>
struct Progression {
  std::vector<RefPoint> points;
  std::vector<mpz_class> logs;

  Progression(std::size_t n, unsigned long seed) {
    using Ref = CurveReference<C>;
    field_test::Random random(seed);
    mpz_class r = Ref::r(), a = random.below(r), d = random.below(r);
    RefPoint point = Ref::multiply(Ref::generator(), a), step = Ref::multiply(Ref::generator(), d);
    mpz_class log = a;
    for (std::size_t i = 0; i < n; ++i) {
      points.push_back(point);
      logs.push_back(log);
      point = Ref::add(point, step);
      log = (log + d) % r;
    }
  }
};

template <class C>
std::vector<mpz_class> random_scalars(std::size_t n, unsigned long seed) {
  field_test::Random random(seed);
  std::vector<mpz_class> scalars;
  for (std::size_t i = 0; i < n; ++i) scalars.push_back(random.below(CurveReference<C>::r()));
  return scalars;
}

// sum_i k_i P_i, each product by double-and-add over k_i's bits (k_i as given, unreduced).
template <class C>
RefPoint naive_sum(const std::vector<RefPoint>& points, const std::vector<mpz_class>& scalars) {
  using Ref = CurveReference<C>;
  RefPoint sum = RefPoint::at_infinity();
  for (std::size_t i = 0; i < points.size(); ++i) sum = Ref::add(sum, Ref::multiply(points[i], scalars[i]));
  return sum;
}

// sum_i k_i (s_i G) = (sum_i k_i s_i mod r) G.
template <class C>
RefPoint sum_by_logs(const std::vector<mpz_class>& logs, const std::vector<mpz_class>& scalars) {
  using Ref = CurveReference<C>;
  mpz_class total = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) total = (total + logs[i] * scalars[i]) % Ref::r();
  return Ref::multiply(Ref::generator(), total);
}

// `vectors` random scalar vectors over the points of `inputs`, one after another as
// msm_batch reads them (vector v from seed + v), and each vector's sum by logarithms.
struct ScalarVectors {
  std::vector<mpz_class> all;
  std::vector<RefPoint> sums;
};
template <class C>
ScalarVectors scalar_vectors(const Progression<C>& inputs, std::size_t vectors, unsigned long seed) {
  ScalarVectors result;
  for (std::size_t v = 0; v < vectors; ++v) {
    auto scalars = random_scalars<C>(inputs.points.size(), seed + v);
    result.all.insert(result.all.end(), scalars.begin(), scalars.end());
    result.sums.push_back(sum_by_logs<C>(inputs.logs, scalars));
  }
  return result;
}

// The scalars as the MSM reads them: 256-bit words, any value below 2^256.
template <class C>
std::vector<sprig::curve::MsmScalar<C>> scalar_words(const std::vector<mpz_class>& scalars) {
  std::vector<sprig::curve::MsmScalar<C>> words;
  for (const mpz_class& k : scalars) words.push_back({curve_test::scalar_words<8>(k)});
  return words;
}

// The MSM under `options`. Where they leave the split to the library (Endomorphism::Auto)
// and it splits (most small MSMs do), the MSM also runs unsplit and must give the same
// point, so that every test's inputs reach both paths.
template <class C>
sprig::curve::MsmResult<C> run_msm(sprig::Device& device, const std::vector<RefPoint>& points,
                                   const std::vector<mpz_class>& scalars,
                                   const sprig::curve::MsmOptions& options = {}) {
  auto point_buffer = device.upload(curve_test::affine_points<C>(points));
  auto scalar_buffer = device.upload(scalar_words<C>(scalars));
  auto result = sprig::curve::msm<C>(device, point_buffer, scalar_buffer, options);
  if constexpr (sprig::curve::HasEndomorphism<C>) {
    if (options.endomorphism == sprig::curve::Endomorphism::Auto &&
        sprig::curve::msm_plan<C>(device, points.size(), options).scalar_parts == 2) {
      sprig::curve::MsmOptions unsplit = options;
      unsplit.endomorphism = sprig::curve::Endomorphism::Off;
      INFO("the MSM without the split");
      CHECK(sprig::curve::msm<C>(device, point_buffer, scalar_buffer, unsplit).point == result.point);
    }
  }
  return result;
}

// The MSM's point against the expected one, as points and limb for limb.
template <class C>
void check_point(const sprig::curve::Affine<C>& got, const RefPoint& expected) {
  INFO("expected " << expected.str() << ", got " << CurveReference<C>::point(got).str());
  CHECK(got == CurveReference<C>::affine(expected));
}

}  // namespace msm_test
