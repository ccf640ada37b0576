// MSM stage (d): each window's sum_j j B_j over its buckets B_1 .. B_K (K = 2^(c-1), bucket
// slot j - 1 holds magnitude j), by running sums, split into segments of m buckets so that
// many invocations share a window.
//
//   segment s (buckets s m + 1 .. s m + m), walked from the top with a running sum:
//     T_s = sum_t B_(s m + t)             A_s = sum_t t B_(s m + t)      (t = 1 .. m)
//   window = sum_s (A_s + s m T_s) = sum_s A_s + m (sum_s s T_s)
//
// and sum_s s T_s is the same running-sum walk over the segments' totals: walking s down,
// adding T_s into a running sum and the running sum into W gives W = sum_s (s + 1) T_s, so
// sum_s s T_s = W - sum_s T_s. m is a power of two: the product by m is log2(m) doublings.
// One invocation per (window, segment) walks m buckets (2 m full additions), then one per
// window walks the segments (3 per segment).
#pragma once

#include <bit>
#include <string>

#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/point_steps.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

// Drivers inline every call of a device function (Mesa's do; so the pipeline holds one copy
// of the addition per call site): each kernel here makes one call of the addition per loop
// step, choosing its operands by selects, so that it holds one copy.

// segment_sums[2 (w S + s)] = A_s and [2 (w S + s) + 1] = T_s of window w of the batch:
// step 2t adds bucket s m + m - t into the running sum, step 2t + 1 the running sum into A.
template <ShortWeierstrass C>
const auto& bucket_segments_kernel() {
  using X = Xyzz<C>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_bucket_segments",
        [](ReadBuffer<X> buckets, WriteBuffer<X> segment_sums, UInt segment_count, UInt buckets_per_window,
           UInt segment_length) {
          UInt index = msm_invocation();  // window * segments + segment
          if_(index < segment_count, [&] {
            UInt segments = buckets_per_window / segment_length;
            UInt window = index / segments, segment = index % segments;
            UInt top = window * buckets_per_window + (segment + 1u) * segment_length - 1u;
            Expr<X> infinity = xyzz_infinity_point<C>(index.node()->loc);
            Var<X> running = infinity, weighted = infinity;
            for_(0u, 2u * segment_length, [&](UInt step) {
              Bool weighting = (step & 1u) != 0u;
              Expr<X> bucket = buckets[top - (step >> 1u)];
              Expr<X> sum = add_points<C>(select_point<C>(weighting, weighted.load(), running.load()),
                                          select_point<C>(weighting, running.load(), bucket));
              running = select_point<C>(weighting, running.load(), sum);
              weighted = select_point<C>(weighting, sum, weighted.load());
            });
            segment_sums[2u * index] = weighted.load();
            segment_sums[2u * index + 1u] = running.load();
          });
        },
        workgroup(msm_workgroup_size)
            .names("buckets", "segment_sums", "segment_count", "buckets_per_window", "segment_length"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_bucket_segments"), trace);
}

// window_sums[first_window + w] = sum_s A_s + m (sum_s s T_s) for the batch's windows, one
// addition per step into one of three sums:
//   steps 3k, 3k + 1, 3k + 2 (segment s = S - 1 - k):  sum += A_s, running += T_s, weighted += running
//   step 3S:                                           weighted += -running   (sum_s s T_s)
//   steps 3S + 1 .. 3S + log2(m):                      weighted += weighted   (times m)
//   the last step:                                     sum += weighted
template <ShortWeierstrass C>
const auto& window_sum_kernel() {
  using X = Xyzz<C>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_window_sums",
        [](ReadBuffer<X> segment_sums, Buffer<X> window_sums, UInt windows, UInt first_window, UInt segments,
           UInt segment_length_bits) {
          UInt window = msm_invocation();
          if_(window < windows, [&] {
            const SourceLoc& loc = window.node()->loc;
            Expr<X> infinity = xyzz_infinity_point<C>(loc);
            Var<X> sum = infinity, running = infinity, weighted = infinity;
            UInt walk = 3u * segments, steps = walk + segment_length_bits + 2u;
            for_(0u, steps, [&](UInt step) {
              UInt phase = step % 3u, segment = segments - 1u - min(step, walk - 1u) / 3u;
              UInt at = 2u * (window * segments + segment);
              Bool walking = step < walk;
              Bool into_sum = (walking && phase == 0u) || step == steps - 1u;
              Bool into_running = walking && phase == 1u;
              Expr<X> r = running.load(), w = weighted.load();
              Expr<X> negated_running = point_of(negated(parts_of(r), loc), loc);
              // The right operand: A_s, T_s, the running sum, its negation, or the weighted sum.
              Expr<X> right = select_point<C>(
                  walking,
                  select_point<C>(phase == 0u, segment_sums[at].load(),
                                  select_point<C>(phase == 1u, segment_sums[at + 1u].load(), r)),
                  select_point<C>(step == walk, negated_running, w));
              Expr<X> left = select_point<C>(into_sum, sum.load(), select_point<C>(into_running, r, w));
              Expr<X> result = add_points<C>(left, right);
              sum = select_point<C>(into_sum, result, sum.load());
              running = select_point<C>(into_running, result, r);
              weighted = select_point<C>(!into_sum && !into_running, result, w);
            });
            window_sums[first_window + window] = sum.load();
          });
        },
        workgroup(msm_workgroup_size)
            .names("segment_sums", "window_sums", "windows", "first_window", "segments", "segment_length_bits"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_window_sums"), trace);
}

// Records both kernels for `windows` windows of the batch starting at `first_window`.
template <ShortWeierstrass C>
void record_bucket_reduction(Sequence& sequence, const MsmPlan& plan, const DeviceBuffer<Xyzz<C>>& buckets,
                             const DeviceBuffer<Xyzz<C>>& segment_sums, const DeviceBuffer<Xyzz<C>>& window_sums,
                             std::uint32_t first_window, std::uint32_t windows) {
  std::uint32_t segment_count = windows * plan.segments();
  sequence.run(bucket_segments_kernel<C>(), msm_grid(segment_count), buckets, segment_sums, segment_count,
               plan.buckets, plan.segment_length);
  sequence.run(window_sum_kernel<C>(), msm_grid(windows), segment_sums, window_sums, windows, first_window,
               plan.segments(), std::uint32_t(std::countr_zero(plan.segment_length)));
}

}  // namespace sprig::curve::detail
