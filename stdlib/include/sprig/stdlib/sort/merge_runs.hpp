// A stable merge of two sorted runs held one after the other in a buffer, into another
// buffer at an offset, with the values that travel with the keys: what the radix sort
// under a memory budget (budgeted_sort.hpp) merges its sorted chunks with.
//
// Each invocation writes `merge_shape.items` consecutive outputs. It finds how many of the left
// run's keys come before its first output by a binary search along its diagonal of the
// merge (the "merge path": Odeh, Green, Mwassi, Shmueli and Birk, "Merge Path - Parallel
// Merging Made Simple", 2012), then merges sequentially from there. Equal keys take the
// left run first, so the merge is stable. Keys compare by their bits [shift, shift + width)
// only, as the sort's bit range asks.
#pragma once

#include <string>

#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/sort/digit_counts.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::detail {

// 64 invocations a workgroup, 4 outputs each: on the H100, 2^28 pairs under a quarter
// budget sorted in 55 ms with 4 outputs an invocation, 56 with 2, 71 with 8 and 147 with
// 16. Fewer outputs mean more searches, but neighbours' stores closer together.
inline constexpr TileShape merge_shape{64, 4};

// from[0, left) and from[left, left + right) merged into to[first, first + left + right);
// values likewise where `with_values` is 1.
template <RadixKey K>
using MergeRunsKernel = Kernel<ReadBuffer<K>, WriteBuffer<K>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
                               UInt, UInt, UInt, UInt, Expr<K>, UInt>;

template <RadixKey K>
const MergeRunsKernel<K>& merge_runs_kernel() {
  std::string name = std::string("merge_runs<") + (sizeof(K) == 8 ? "uint64" : "uint32") + ">";
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<K> from, WriteBuffer<K> to, ReadBuffer<std::uint32_t> values_from,
           WriteBuffer<std::uint32_t> values_to, UInt left, UInt right, UInt first, UInt shift, Expr<K> mask,
           UInt with_values) {
          UInt total = left + right;
          UInt diagonal = (linear_workgroup_id() * merge_shape.invocations + local_index()) * merge_shape.items;
          if_(diagonal < total, [&] {
            auto sort_bits = [&](const Expr<K>& key) { return (key >> cast<K>(shift)) & mask; };
            auto left_key = [&](const UInt& i) { return sort_bits(from[i].load()); };
            auto right_key = [&](const UInt& j) { return sort_bits(from[left + j].load()); };
            // The number of left keys among the first `diagonal` outputs: the first i whose
            // left key comes after the right key it faces on the diagonal.
            Var<std::uint32_t> low = select(diagonal > right, diagonal - right, UInt(0u));
            Var<std::uint32_t> high = min(diagonal, left);
            loop_([&] {
              if_(low.load() >= high.load(), [] { break_(); });
              UInt middle = (low.load() + high.load()) / 2u;
              if_(left_key(middle) <= right_key(diagonal - middle - 1u), [&] { low = middle + 1u; }).else_([&] {
                high = middle;
              });
            });
            Var<std::uint32_t> i = low.load();
            Var<std::uint32_t> j = diagonal - low.load();
            UInt end = min(diagonal + merge_shape.items, total);
            for_(diagonal, end, [&](UInt out) {
              // Reads stay in the runs: an exhausted run's index is clamped and not taken.
              Bool take_left =
                  j.load() >= right ||
                  (i.load() < left && left_key(min(i.load(), left - 1u)) <= right_key(min(j.load(), right - 1u)));
              UInt source = select(take_left, i.load(), left + j.load());
              to[first + out] = from[source].load();
              if_(with_values != 0u, [&] { values_to[first + out] = values_from[source].load(); });
              if_(take_left, [&] { i = i.load() + 1u; }).else_([&] { j = j.load() + 1u; });
            });
          });
        },
        workgroup(merge_shape.invocations));
  };
  return cached_kernel<MergeRunsKernel<K>>(name, trace);
}

// A merge of `total` keys: rows of workgroups, so that more than 65,535 fit in a launch.
inline Grid merge_runs_grid(std::size_t total) { return tile_grid(merge_shape.tiles_for(total), merge_shape); }

}  // namespace sprig::detail
