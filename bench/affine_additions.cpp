// Mixed XYZZ additions against affine additions batched by Montgomery's trick, per second,
// in the shape of the MSM's accumulation: whether affine bucket sums would pay
// (docs/msm.md, "Left for later").
//
//   * XYZZ: each invocation adds K points into one sum held in registers, as a run of the
//     accumulation does (10 field products an addition).
//   * Affine: each invocation adds one point into each of its K affine sums. The K
//     denominators x_P - x_S multiply into one product, which is inverted once; walking
//     back over the running products (kept in memory, as K of them do not fit in
//     registers) gives each denominator's inverse, then lambda, x and y (about 6 products
//     an addition and the inversion's share, some 250 products over K).
//
// Both kernels add the same 2^log-additions (point, sum) pairs a launch, over 2^20 points
// (2^12 on a CPU device) laid out as the MSM's inputs are. The affine sums after the first
// launch are checked against the XYZZ additions of the same points converted to affine
// coordinates. Neither handles equal or opposite points, which random multiples of the
// generator do not meet.
//
//   bench_affine_additions [--log-additions 24] [--repeat 5] [--limbs 32|64|29]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/curve/curve.hpp>
#include <sprig/stdlib/curve/msm/invocations.hpp>
#include <sprig/stdlib/curve/msm/point_steps.hpp>

#include "curve_points.hpp"
#include "stdlib_bench.hpp"

using namespace sprig;
using stdlib_bench::time_ms;

namespace {

using G1 = curve::Bn254G1;
using A = curve::Affine<G1>;
using X = curve::Xyzz<G1>;
using F = field::Fp<G1::Base>;
using M = field::Montgomery<G1::Base>;

// The point that slot s (of the launch's pairs) adds in launch `round`: spread over all
// `points` (a power of two) as the MSM's bucketed entries are.
UInt point_index(const UInt& slot, const UInt& round, const UInt& points) {
  return ((slot + 1u) * 0x9e3779b1u + round * 0x7f4a7c15u) & (points - 1u);
}

// sums[s] = points[point_index(s, 0)]: the affine sums before the first launch.
const auto& first_sums_kernel() {
  auto trace = [] {
    return kernel("bench_first_affine_sums", [](WriteBuffer<A> sums, ReadBuffer<A> points, UInt count) {
      UInt s = curve::detail::msm_invocation();
      if_(s < count, [&] { sums[s] = points[point_index(s, 0u, points.size())]; });
    }, workgroup(curve::detail::msm_workgroup_size));
  };
  return sprig::detail::cached_kernel<decltype(trace())>("bench/affine_additions/first_sums", trace);
}

// Invocation i owns sums i, i + invocations, ..., i + (K - 1) invocations (neighbouring
// lanes, neighbouring sums) and adds each one point with one inversion.
const auto& affine_batch_kernel(std::uint32_t per_invocation) {
  auto trace = [per_invocation] {
    return kernel("bench_affine_batch_additions", [per_invocation](Buffer<A> sums, ReadBuffer<A> points,
                                                                   Buffer<M> running, UInt invocations, UInt round) {
      UInt i = curve::detail::msm_invocation();
      if_(i < invocations, [&] {
        const UInt k_count(per_invocation);
        Var<F> product = F::one();
        for_(0u, k_count, [&](UInt k) {
          UInt s = k * invocations + i;
          curve::AffinePoint<G1> sum = sums[s], point = points[point_index(s, round, points.size())];
          running[s] = product;  // the product of the denominators before this one
          product = F(product) * (point.x() - sum.x());
        });
        // The inverse of the product of the denominators not yet walked (all K at first).
        Var<F> inverse = F(product).inverse();
        for_(0u, k_count, [&](UInt j) {
          UInt s = (k_count - 1u - j) * invocations + i;
          curve::AffinePoint<G1> sum = sums[s], point = points[point_index(s, round, points.size())];
          F denominator = point.x() - sum.x();
          F denominator_inverse = F(inverse) * F(running[s]);
          inverse = F(inverse) * denominator;
          F lambda = (point.y() - sum.y()) * denominator_inverse;
          F x = lambda.square() - sum.x() - point.x();
          sums[s] = curve::AffinePoint<G1>(x, lambda * (sum.x() - x) - sum.y());
        });
      });
    }, workgroup(curve::detail::msm_workgroup_size));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      "bench/affine_additions/affine/" + std::to_string(per_invocation) + field::detail::product_limbs_key(),
      trace);
}

// Invocation i sums K points (slots i, i + invocations, ...) into one XYZZ sum.
const auto& xyzz_run_kernel(std::uint32_t per_invocation) {
  auto trace = [per_invocation] {
    return kernel("bench_xyzz_mixed_additions", [per_invocation](Buffer<X> sums, ReadBuffer<A> points,
                                                                 UInt invocations, UInt round) {
      UInt i = curve::detail::msm_invocation();
      if_(i < invocations, [&] {
        Var<X> sum = sums[i];
        for_(0u, UInt(per_invocation), [&](UInt k) {
          Expr<A> point = points[point_index(k * invocations + i, round, points.size())];
          sum = curve::detail::add_affine<G1>(sum.load(), point);
        });
        sums[i] = sum.load();
      });
    }, workgroup(curve::detail::msm_workgroup_size));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      "bench/affine_additions/xyzz/" + std::to_string(per_invocation) + field::detail::product_limbs_key(),
      trace);
}

// expected[s] = points[point_index(s, 0)] + points[point_index(s, 1)], through XYZZ.
const auto& expected_sums_kernel() {
  auto trace = [] {
    return kernel("bench_expected_affine_sums", [](WriteBuffer<A> expected, ReadBuffer<A> points, UInt count) {
      UInt s = curve::detail::msm_invocation();
      if_(s < count, [&] {
        const SourceLoc& loc = s.node()->loc;
        Expr<X> first = curve::detail::add_affine<G1>(curve::detail::xyzz_infinity_point<G1>(loc),
                                                      points[point_index(s, 0u, points.size())]);
        Expr<X> sum = curve::detail::add_affine<G1>(first, points[point_index(s, 1u, points.size())]);
        expected[s] = curve::detail::to_affine_function<G1>()(sum);
      });
    }, workgroup(curve::detail::msm_workgroup_size));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      "bench/affine_additions/expected" + field::detail::product_limbs_key(), trace);
}

}  // namespace

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  const bool cpu = gpu.info().type == "cpu";
  int log_additions = cpu ? 14 : 24, repeat = 5, limbs = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--log-additions")) log_additions = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeat")) repeat = std::max(1, std::atoi(argv[i + 1]));
    else if (!std::strcmp(argv[i], "--limbs")) limbs = std::atoi(argv[i + 1]);
  }
  if (log_additions < 8 || log_additions > 26) {
    std::fprintf(stderr, "bench_affine_additions: --log-additions must be 8 to 26, not %d\n", log_additions);
    return 2;
  }
  if (limbs != 0 && limbs != 32 && limbs != 64 && limbs != 29) {
    std::fprintf(stderr, "bench_affine_additions: --limbs must be 32, 64 or 29, not %d\n", limbs);
    return 2;
  }
  field::ProductLimbs wanted = limbs == 32   ? field::ProductLimbs::Bits32
                               : limbs == 64 ? field::ProductLimbs::Bits64
                               : limbs == 29 ? field::ProductLimbs::Bits29
                                             : field::ProductLimbs::Auto;
  field::ProductLimbsScope scope(field::product_limbs_for(gpu.info(), field::FieldConstants<G1::Base>::limbs, wanted));

  const std::uint32_t additions = 1u << log_additions;
  const std::size_t point_count = std::size_t(1) << (cpu ? 12 : 20);
  auto points = curve_bench::multiples_of_generator<G1>(gpu, point_count);
  auto sums = gpu.alloc<A>(additions);
  auto running = gpu.alloc<M>(additions);
  const std::string limbs_traced = field::detail::product_limbs_key();  // "" for 32-bit limbs, else "/limbsN"
  std::printf("BN254 G1 additions on %s (%s), %s limbs, 2^%d a launch over 2^%d points, best of rounds of %d "
              "launches\n\n",
              gpu.name().c_str(), gpu.info().backend.c_str(),
              limbs_traced.empty() ? "32-bit" : (limbs_traced.substr(6) + "-bit").c_str(), log_additions,
              int(std::log2(double(point_count))), repeat);
  std::printf("| kind | additions an invocation | invocations | ms a launch | additions/s | against XYZZ |\n"
              "| --- | --- | --- | --- | --- | --- |\n");

  double xyzz_per_s = 0;
  for (std::uint32_t per_invocation : {64u, 128u}) {
    const std::uint32_t invocations = additions / per_invocation;
    auto xyzz_sums = gpu.alloc<X>(invocations);
    {
      auto s = gpu.sequence();
      s.fill(xyzz_sums, 0);  // the point at infinity
      s.run_and_wait();
    }
    const auto& run = xyzz_run_kernel(per_invocation);
    double ms = time_ms(gpu, repeat, [&](Sequence& s) {
      s.run(run, curve::detail::msm_grid(invocations), xyzz_sums, points, invocations, 1u);
    });
    double per_s = additions / ms * 1e3;
    xyzz_per_s = std::max(xyzz_per_s, per_s);
    std::printf("| XYZZ, a sum in registers | %u | %u | %.3f | %.4g | |\n", per_invocation, invocations, ms, per_s);
  }

  // The check: one launch from the first sums against the XYZZ additions of the same points.
  const std::uint32_t checked = std::min<std::uint32_t>(additions, 4096);
  auto expected = gpu.alloc<A>(checked);
  gpu.run(expected_sums_kernel(), curve::detail::msm_grid(checked), expected, points, checked);
  const std::vector<A> expected_host = gpu.download(expected);
  for (std::uint32_t per_invocation : {16u, 64u, 256u}) {
    const std::uint32_t invocations = additions / per_invocation;
    if (invocations == 0) continue;
    const auto& batch = affine_batch_kernel(per_invocation);
    gpu.run(first_sums_kernel(), curve::detail::msm_grid(additions), sums, points, additions);
    gpu.run(batch, curve::detail::msm_grid(invocations), sums, points, running, invocations, 1u);
    std::vector<A> got = gpu.download(sums);
    got.resize(checked);
    if (got != expected_host) std::printf("WRONG affine sums with %u additions an invocation\n", per_invocation);
    double ms = time_ms(gpu, repeat, [&](Sequence& s) {
      s.run(batch, curve::detail::msm_grid(invocations), sums, points, running, invocations, 2u);
    });
    double per_s = additions / ms * 1e3;
    std::printf("| affine, one inversion an invocation | %u | %u | %.3f | %.4g | %.2fx |\n", per_invocation,
                invocations, ms, per_s, per_s / xyzz_per_s);
  }
  return 0;
}
