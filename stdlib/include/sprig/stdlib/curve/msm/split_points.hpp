// The points an MSM of split scalars reads (scalar_split.hpp): the n points, then their n
// images phi(P) = (beta x, y) under the curve's endomorphism, in one buffer of 2n, so that
// the accumulation reads either kind as it reads points (an image's index is its point's
// plus n) and needs no product of its own. The point at infinity (0, 0) is its own image.
// Two copy commands fill both halves with the points at the copy engine's rate; the kernel
// then rewrites only the images' x. On an H200 a kernel writing whole points and images
// took 0.37 ms for 2^20 points (docs/msm.md).
#pragma once

#include <string>

#include "sprig/stdlib/curve/endomorphism.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/point_functions.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

// split[n + i].x = beta * points[i].x; the caller has copied the points into both halves.
template <HasEndomorphism C>
const auto& split_image_x_kernel() {
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_split_image_x",
        [](ReadBuffer<Affine<C>> points, WriteBuffer<Affine<C>> split, UInt n) {
          UInt i = msm_invocation();
          if_(i < n, [&] {
            const SourceLoc& loc = i.node()->loc;
            Element<C> x = points[i][&Affine<C>::x].load();
            Element<C> beta = field::detail::struct_constant<field::Montgomery<typename C::Base>>(
                EndomorphismConstants<C>::beta, loc);
            split[n + i][&Affine<C>::x] = product<C>(beta, x, loc);
          });
        },
        workgroup(msm_workgroup_size).names("points", "split", "n"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_split_image_x"), trace);
}

// Records the 2n points of split scalars into `split` (2n long): the points, then their images.
template <HasEndomorphism C>
void record_split_points(Sequence& sequence, const DeviceBuffer<Affine<C>>& points,
                         const DeviceBuffer<Affine<C>>& split, std::uint64_t n) {
  const std::size_t bytes = n * sizeof(Affine<C>);
  sequence.copy(points, 0, split, 0, bytes);
  sequence.copy(points, 0, split, bytes, bytes);
  sequence.run(split_image_x_kernel<C>(), msm_grid(n), points, split, std::uint32_t(n));
}

}  // namespace sprig::curve::detail
