// One tile of a stable stream compaction, for kernels that decide per item what to keep
// (copy_if and partition in compact.hpp, pipeline filters): each subgroup ranks its kept
// items with ballots, the workgroup scans the subgroup counts, and tiles chain their
// counts with a decoupled look-back. A subgroup's kept items of one load land contiguously.
// Not a template, and defined in the library's sources: every filter traces the same tile.
#pragma once

#include <cstdint>
#include <vector>

#include "sprig/dsl/function_ref.hpp"
#include "sprig/stdlib/decoupled_lookback.hpp"
#include "sprig/stdlib/operators.hpp"
#include "sprig/stdlib/spin_safe_barrier.hpp"
#include "sprig/stdlib/tiling.hpp"
#include "sprig/stdlib/workgroup_scan.hpp"

namespace sprig::detail {

class CompactionTile {
 public:
  // Construct at the top level of the kernel, before acquire().
  CompactionTile(const TileShape& shape, const LookBackTraits& traits, CoherentBuffer<std::uint64_t> status,
                 SubgroupScanForm form = {});
  ~CompactionTile();
  CompactionTile(const CompactionTile&) = delete;  // its members refer to each other
  CompactionTile& operator=(const CompactionTile&) = delete;

  // This workgroup's tile, in the order workgroups start (see acquire_tile).
  UInt acquire() const;

  // Where each kept item goes among all kept elements of the stream: keep[j] says whether
  // item j of this invocation (striped_index(.., j)) is kept. Call in uniform control flow.
  // `with_kept_through_tile(n)` runs in one invocation with the number kept up to and
  // including this tile (copy_if's last tile stores it as the total).
  std::vector<UInt> destinations(const std::vector<Bool>& keep, const UInt& tile,
                                 FunctionRef<void(const UInt&)> with_kept_through_tile);

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
