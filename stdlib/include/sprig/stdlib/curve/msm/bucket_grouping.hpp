// MSM stage (b): the (window, point) digits grouped by bucket, a CSR transpose. The digit
// stage counted each bucket's entries; an exclusive scan of the counts (the stdlib scan)
// gives each bucket its first slot, and every digit takes the next slot of its bucket with
// an atomic increment. Afterwards ends[b] is one past bucket b's last entry (the scan's
// starts, advanced by the counts), the one array the later stages need: bucket b holds
// entries [ends[b - 1], ends[b]).
//
// An entry is the point's index with the digit's sign in the top bit: over a table of
// window multiples (msm_table.hpp), the index of the point's multiple for the window. Within
// a bucket the entries come in the order the atomics ran, which varies between runs on a
// GPU: bucket sums then differ in their XYZZ coordinates, never as points.
#pragma once

#include <string>

#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/point_functions.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

template <ShortWeierstrass C>
const auto& bucket_scatter_kernel() {
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_bucket_scatter",
        [](ReadBuffer<std::uint32_t> digits, Buffer<std::uint32_t> ends, WriteBuffer<std::uint32_t> entries,
           UInt first_point, UInt n, UInt rows, UInt count, UInt first_window, UInt window_stride,
           UInt image_offset) {
          UInt e = msm_invocation();
          if_(e < count, [&] {
            UInt digit = digits[e];
            if_(digit != msm_no_bucket, [&] {
              UInt slot = atomic_add(ends[digit >> 1u], 1u);
              // A window's rows: the points', then (split scalars) their images'.
              UInt row_digit = e % (rows * n);
              UInt point = select(row_digit < n, row_digit, row_digit - n + image_offset);
              point = (first_window + e / (rows * n)) * window_stride + first_point + point;
              entries[slot] = point | select((digit & 1u) != 0u, UInt(msm_sign_bit), UInt(0u));
            });
          });
        },
        workgroup(msm_workgroup_size)
            .names("digits", "ends", "entries", "first_point", "n", "rows", "count", "first_window", "window_stride",
                   "image_offset"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_bucket_scatter"), trace);
}

// Records the grouping of `windows` windows of `rows` rows of n digits each (rows 2 for split
// scalars: the points', then their images'), of the points from `first_point` on: `counts`
// (from the digit stage) scanned into `ends`, then the scatter into `entries`, which hold
// the points' indices in the whole MSM (an image's index is its point's plus image_offset),
// or in a table whose window w holds its multiples from w * window_stride on (window_stride
// 0: no table).
template <ShortWeierstrass C>
void record_bucket_grouping(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& digits,
                            const DeviceBuffer<std::uint32_t>& counts, const DeviceBuffer<std::uint32_t>& ends,
                            const DeviceBuffer<std::uint32_t>& entries, std::uint64_t first_point, std::uint64_t n,
                            std::uint32_t rows, std::uint32_t first_window, std::uint32_t windows,
                            std::uint64_t window_stride, std::uint64_t image_offset) {
  exclusive_scan(device, sequence, counts, ends, plus<std::uint32_t>());
  std::uint64_t count = n * rows * windows;
  sequence.run(bucket_scatter_kernel<C>(), msm_grid(count), digits, ends, entries, std::uint32_t(first_point),
               std::uint32_t(n), rows, std::uint32_t(count), first_window, std::uint32_t(window_stride),
               std::uint32_t(image_offset));
}

}  // namespace sprig::curve::detail
