// Many XYZZ points to affine coordinates with one field inversion per invocation instead of
// one per point (Montgomery's trick): the product of every point's ZZ * ZZZ is inverted once,
// and walking back over the prefix products gives each point's inverse with two products.
//
//   In a kernel: batch_to_affine(in, out, first, stride, count) converts in[first + j stride]
//   into out[first + j stride] for j < count. out is read-write: the walk keeps its prefix
//   products there until the points overwrite them.
//   On the host: curve::to_affine(device, sequence, in, out) records a kernel that splits the
//   buffers among invocations, each converting `points_per_invocation` points with a stride
//   of the invocation count, so that neighbouring lanes read neighbouring points.
//
// Points at infinity (ZZ = 0) enter the product as 1 and come out as (0, 0). Each invocation
// runs 2 count loop iterations plus the inversion's (the bits of p - 2): the host function
// keeps that within lavapipe's loop cap (architecture.md, driver quirks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/curve/xyzz_point.hpp"

namespace sprig::curve {

// In the calling kernel: out[i] = in[i] in affine coordinates for i = first + j * stride,
// j < count, with one inversion.
template <ShortWeierstrass C, Access In>
  requires(readable(In))
void batch_to_affine(const BufferParam<Xyzz<C>, In>& in, const Buffer<Affine<C>>& out, const UInt& first,
                     const UInt& stride, const UInt& count) {
  using F = field::Fp<typename C::Base>;
  Var<F> product = F::one();
  for_(0u, count, [&](UInt j) {
    UInt i = first + j * stride;
    XyzzPoint<C> p = in[i];
    F factor = p.zz() * p.zzz();
    factor = select(factor.is_zero(), F::one(), factor);
    out[i][&Affine<C>::x] = product;  // the product of the factors before this one
    out[i][&Affine<C>::y] = factor;
    product = F(product) * factor;
  });
  Var<F> inverse = F(product).inverse();  // of the product of the factors up to j, below
  for_(0u, count, [&](UInt k) {
    UInt i = first + (count - 1u - k) * stride;
    F prefix = out[i][&Affine<C>::x], factor = out[i][&Affine<C>::y];
    F factor_inverse = F(inverse) * prefix;
    inverse = F(inverse) * factor;
    XyzzPoint<C> p = in[i];
    F x = p.x() * (factor_inverse * p.zzz()), y = p.y() * (factor_inverse * p.zz());
    Bool infinite = p.is_infinity();
    out[i] = AffinePoint<C>(select(infinite, F::zero(), x), select(infinite, F::zero(), y));
  });
}

namespace detail {

template <ShortWeierstrass C>
const auto& to_affine_kernel() {
  auto trace = [] {
    return kernel(std::string(C::name) + "_batch_to_affine",
                  [](ReadBuffer<Xyzz<C>> in, Buffer<Affine<C>> out, UInt first, UInt count, UInt stride) {
                    UInt lane = global_id().x();
                    if_(lane < stride, [&] {
                      // The points lane, lane + stride, ... below count.
                      UInt mine = (count - lane + stride - 1u) / stride;
                      batch_to_affine(in, out, first + lane, stride, mine);
                    });
                  },
                  workgroup(64).names("in", "out", "first", "count", "stride"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("to_affine_kernel"), trace);
}

// Loop iterations one invocation may take: lavapipe stops every loop of an invocation after
// 65,535 in all (the lavapipe-loop-cap quirk), so keep a margin below that, as the hash
// library does; elsewhere no limit.
inline std::uint64_t loop_iterations_allowed(const DeviceInfo& info) {
  return info.quirks.has(Quirk::LoopBackEdgeCap) ? 60000 : std::numeric_limits<std::uint64_t>::max();
}

}  // namespace detail

// The default share of each invocation of to_affine: one inversion per 32 points.
inline constexpr std::uint32_t default_points_per_invocation = 32;

// Records out[i] = in[i] in affine coordinates for i < in.size(); out may be longer.
template <ShortWeierstrass C>
void to_affine(Device& device, Sequence& sequence, const DeviceBuffer<Xyzz<C>>& in, const DeviceBuffer<Affine<C>>& out,
               std::uint32_t points_per_invocation = default_points_per_invocation) {
  const std::string what = std::string(C::name) + " to_affine: ";
  if (out.size() < in.size())
    throw std::invalid_argument(what + "the output holds " + std::to_string(out.size()) + " points, the input " +
                                std::to_string(in.size()));
  if (points_per_invocation == 0) throw std::invalid_argument(what + "points_per_invocation is 0");
  std::uint64_t iterations = 2 * std::uint64_t(points_per_invocation) +
                             field::detail::bit_length(field::FieldConstants<typename C::Base>::p_minus_2);
  if (iterations > detail::loop_iterations_allowed(device.info()))
    throw std::invalid_argument(what + std::to_string(points_per_invocation) + " points per invocation take " +
                                std::to_string(iterations) + " loop iterations, above the " +
                                std::to_string(detail::loop_iterations_allowed(device.info())) + " that " +
                                device.info().name + " runs per invocation (lavapipe's loop cap)");
  const auto& k = detail::to_affine_kernel<C>();
  std::uint64_t invocations_per_launch = std::uint64_t(device.info().max_workgroup_count[0]) * 64;
  std::uint64_t points_per_launch = invocations_per_launch * points_per_invocation;
  for (std::uint64_t first = 0; first < in.size(); first += points_per_launch) {
    std::uint64_t count = std::min<std::uint64_t>(in.size() - first, points_per_launch);
    std::uint64_t stride = (count + points_per_invocation - 1) / points_per_invocation;
    sequence.run(k, grid(std::uint32_t(stride)), in, out, std::uint32_t(first), std::uint32_t(count),
                 std::uint32_t(stride));
  }
}

// The same, run and waited for.
template <ShortWeierstrass C>
void to_affine(Device& device, const DeviceBuffer<Xyzz<C>>& in, const DeviceBuffer<Affine<C>>& out,
               std::uint32_t points_per_invocation = default_points_per_invocation) {
  auto sequence = device.sequence();
  to_affine(device, sequence, in, out, points_per_invocation);
  sequence.run_and_wait();
}

}  // namespace sprig::curve
