// One tile of a stable stream compaction, for kernels that decide per item what to keep
// (copy_if and partition in compact.hpp, pipeline filters): each subgroup ranks its kept
// items with ballots, the workgroup scans the subgroup counts, and tiles chain their
// counts with a decoupled look-back. A subgroup's kept items of one load land contiguously.
#pragma once

#include <cstdint>
#include <vector>

#include "sprig/stdlib/decoupled_lookback.hpp"
#include "sprig/stdlib/operators.hpp"
#include "sprig/stdlib/spin_safe_barrier.hpp"
#include "sprig/stdlib/tiling.hpp"
#include "sprig/stdlib/workgroup_scan.hpp"

namespace sprig::detail {

class CompactionTile {
 public:
  // Construct at the top level of the kernel, before acquire().
  CompactionTile(const TileShape& shape, const LookBackTraits& traits, CoherentBuffer<std::uint64_t> status)
      : status_(status),
        lanes_(plus<std::uint32_t>(), shape.invocations),
        totals_(lanes_, shape.invocations),
        lookback_(lanes_, traits, status),
        tile_prefix_(shared<std::uint32_t>("tile_prefix")),
        after_lookback_(traits.counted_barrier) {
    after_lookback_.reset();
  }
  CompactionTile(const CompactionTile&) = delete;  // its members refer to each other
  CompactionTile& operator=(const CompactionTile&) = delete;

  // This workgroup's tile, in the order workgroups start (see acquire_tile).
  UInt acquire() const { return acquire_tile(status_); }

  // Where each kept item goes among all kept elements of the stream: keep[j] says whether
  // item j of this invocation (striped_index(.., j)) is kept. Call in uniform control flow.
  // `with_kept_through_tile(n)` runs in one invocation with the number kept up to and
  // including this tile (copy_if's last tile stores it as the total).
  template <class F>
  std::vector<UInt> destinations(const std::vector<Bool>& keep, const UInt& tile,
                                                F&& with_kept_through_tile) {
    std::vector<UInt> rank_in_run, before;  // before: kept in this subgroup's earlier runs
    UInt running = 0u;
    for (const Bool& k : keep) {
      UVec4 ballot = subgroup_ballot(k);
      rank_in_run.push_back(ballot_exclusive_bit_count(ballot));
      before.push_back(running);
      running = running + ballot_bit_count(ballot);
    }
    totals_.scan(running, [&](const UInt& aggregate) {
      UInt prefix = lookback_.exclusive_prefix(tile, aggregate);
      if_(lanes_.lane() == 0u, [&] {
        tile_prefix_ = prefix;
        with_kept_through_tile(prefix + aggregate);
      });
    }, &after_lookback_);
    UInt base = tile_prefix_.load() + totals_.exclusive_prefix();
    std::vector<UInt> destination;
    for (std::size_t j = 0; j < keep.size(); ++j) destination.push_back(base + before[j] + rank_in_run[j]);
    return destination;
  }

 private:
  using Op = decltype(plus<std::uint32_t>());
  CoherentBuffer<std::uint64_t> status_;
  SubgroupScan<std::uint32_t, Op> lanes_;
  SubgroupTotalsScan<std::uint32_t, Op> totals_;
  DecoupledLookBack<std::uint32_t, Op> lookback_;
  Place<std::uint32_t, Access::ReadWrite> tile_prefix_;
  SpinSafeBarrier after_lookback_;
};

}  // namespace sprig::detail
