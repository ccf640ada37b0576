// The points an MSM of split scalars reads (scalar_split.hpp): the n points, then their n
// images phi(P) = (beta x, y) under the curve's endomorphism, in one buffer of 2n, so that
// the accumulation reads either kind as it reads points (an image's index is its point's
// plus n) and needs no product of its own. The point at infinity (0, 0) is its own image.
#pragma once

#include <string>

#include "sprig/stdlib/curve/endomorphism.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/point_functions.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

template <HasEndomorphism C>
const auto& split_points_kernel() {
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_split_points",
        [](ReadBuffer<Affine<C>> points, WriteBuffer<Affine<C>> split, UInt n) {
          UInt i = msm_invocation();
          if_(i < n, [&] {
            Expr<Affine<C>> point = points[i];
            const SourceLoc& loc = i.node()->loc;
            AffineParts<C> parts = parts_of(point);
            Element<C> beta = field::detail::struct_constant<field::Montgomery<typename C::Base>>(
                EndomorphismConstants<C>::beta, loc);
            split[i] = point;
            split[n + i] = point_of(AffineParts<C>{product<C>(beta, parts.x, loc), parts.y}, loc);
          });
        },
        workgroup(msm_workgroup_size).names("points", "split", "n"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_split_points"), trace);
}

}  // namespace sprig::curve::detail
