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
// window walks the segments (3 per segment): two programs of the XYZZ sums kernel.
#pragma once

#include <bit>
#include <string>

#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/xyzz_sums.hpp"

namespace sprig::curve::detail {

// Records both programs (xyzz_sums.hpp) for `windows` windows of the batch starting at
// `first_window`: the segment sums go to partial_sums, whose run sums are spent by now.
template <ShortWeierstrass C>
void record_bucket_reduction(Sequence& sequence, const MsmPlan& plan, const XyzzSumBuffers<C>& buffers,
                             std::uint32_t first_window, std::uint32_t windows) {
  record_xyzz_sums<C>(sequence, buffers, XyzzSums::Segments, std::uint64_t(windows) * plan.segments(), plan.buckets,
                      plan.segment_length);
  record_xyzz_sums<C>(sequence, buffers, XyzzSums::WindowSums, windows, first_window, plan.segments(),
                      std::uint32_t(std::countr_zero(plan.segment_length)));
}

}  // namespace sprig::curve::detail
