// MSM stage (d): each window's sum_j j B_j over its buckets B_1 .. B_K (K = 2^(c-1), bucket
// slot j - 1 holds magnitude j), by running sums over segments of m buckets, then a tree
// over the segments, so that the walk no invocation takes is longer than m buckets or one
// level of the tree. A group of l buckets keeps T = sum of its buckets scaled by l:
//
//   segment s (buckets s m + 1 .. s m + m), walked from the top with a running sum:
//     A = sum_t t B_(s m + t)      S = m sum_t B_(s m + t)      (t = 1 .. m)
//   two adjacent groups of segments, each of l buckets:
//     A = A_lower + A_upper + S_upper      S = 2 (S_lower + S_upper)
//
// since the upper group's buckets sit l above their own numbering. A level costs three
// additions and one doubling whatever its l; multiplying T by l at each level instead would
// cost log2(l) doublings there, a chain that grows with every level. After log2(K / m)
// levels the group of all segments holds A = sum_j j B_j: the window's sum. One invocation
// per (window, segment) walks m buckets (2 m full additions, log2(m) doublings) and one per
// pair of groups does a level while a level has many pairs (programs of the XYZZ sums
// kernel, one launch per level); the levels above, whose few chains take their latency
// rather than the GPU's throughput, run over teams of lanes, five levels a launch
// (bucket_tree_teams.hpp).
#pragma once

#include <bit>
#include <string>

#include "sprig/stdlib/curve/msm/bucket_tree_teams.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/xyzz_sums.hpp"

namespace sprig::curve::detail {

// Levels of more pairs than this (over all windows) take one invocation a pair.
inline constexpr std::uint64_t msm_tree_pairs_by_invocation = 4096;

// Records the reduction (the XYZZ sums kernel's programs, then the teams' launches) of
// `windows` sets of buckets, whose sums go to window_sums from `first_sum` on: the segment
// sums go to partial_sums, whose run sums are spent by now.
template <ShortWeierstrass C>
void record_bucket_reduction(Sequence& sequence, const MsmPlan& plan, const XyzzSumBuffers<C>& buffers,
                             const DeviceBuffer<Xyzz<C>>& window_sums, std::uint32_t first_sum,
                             std::uint32_t windows) {
  const std::uint32_t segments = plan.segments();
  record_xyzz_sums<C>(sequence, buffers, XyzzSums::Segments, std::uint64_t(windows) * segments, plan.buckets,
                      plan.segment_length, std::uint32_t(std::countr_zero(plan.segment_length)));
  std::uint32_t level = 0;
  for (; (segments >> level) > msm_tree_block_groups &&
         std::uint64_t(windows) * (segments >> (level + 1)) > msm_tree_pairs_by_invocation;
       ++level)
    record_xyzz_sums<C>(sequence, buffers, XyzzSums::CombineSegments,
                        std::uint64_t(windows) * (segments >> (level + 1)), segments, level);
  // Blocks of groups until one block holds a window's every group, whose launch writes the
  // window sums.
  for (;;) {
    bool whole_windows = (segments >> level) <= msm_tree_block_groups;
    level = record_bucket_tree_teams<C>(sequence, buffers.partial_sums, window_sums, windows, segments,
                                        level, first_sum);
    if (whole_windows) break;
  }
}

}  // namespace sprig::curve::detail
