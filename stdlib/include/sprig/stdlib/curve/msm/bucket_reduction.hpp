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

// segment_sums[2 (w S + s)] = A_s and [2 (w S + s) + 1] = T_s of window w of the batch.
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
            for_(0u, segment_length, [&](UInt t) {
              running = add_points<C>(running.load(), buckets[top - t].load());
              weighted = add_points<C>(weighted.load(), running.load());
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

// window_sums[first_window + w] = sum_s A_s + m (sum_s s T_s) for the batch's windows.
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
            for_(0u, segments, [&](UInt k) {
              UInt at = 2u * (window * segments + segments - 1u - k);
              sum = add_points<C>(sum.load(), segment_sums[at].load());
              running = add_points<C>(running.load(), segment_sums[at + 1u].load());
              weighted = add_points<C>(weighted.load(), running.load());
            });
            Expr<X> running_negated = point_of(negated(parts_of(running.load()), loc), loc);
            Var<X> scaled = add_points<C>(weighted.load(), running_negated);
            for_(0u, segment_length_bits, [&](UInt) { scaled = double_point<C>(scaled.load()); });
            window_sums[first_window + window] = add_points<C>(sum.load(), scaled.load());
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
