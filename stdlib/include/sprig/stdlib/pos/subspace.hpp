// Subspace's numbering of table entries: every table is sorted by (y, left, right) (table 1
// by (y, x)) and an entry's position is its index in that order, as Subspace's globally
// sorted tables number them. Buckets are then runs of consecutive positions, kept in
// (y, position) order, and ties in y are broken the way Subspace breaks them.
//
// Table 1: a stable radix sort of (y, x) pairs by y. Tables 2..6: matching writes each
// pair's matches at b * 512 + i; a radix sort by (y, left) as a (2K + 8)-bit key orders the
// slots, a pass orders each run of equal (y, left) by right (two matches of one left entry
// whose ys collide: a run is almost always one entry, so a sort by right before it, as
// there was, cost 3 passes over every slot for nothing), and a gather writes the dense
// table: y, parents and metadata by position, an all-ones y past the last entry.
#pragma once

#include <functional>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/buckets.hpp"
#include "sprig/stdlib/pos/find_matches.hpp"
#include "sprig/stdlib/pos/workgroups.hpp"
#include "sprig/stdlib/sort/radix_sort.hpp"

namespace sprig::pos {

namespace detail {

// values[i] = i: table 1's x values before the sort by y.
using IotaKernel = Kernel<WriteBuffer<std::uint32_t>>;
const IotaKernel& iota_kernel(std::uint32_t invocations);

// Sort keys of the sparse child table: (y << position_bits) | left, all ones for a hole;
// values the slots.
using SubspaceYLeftKeysKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint64_t>,
           WriteBuffer<std::uint32_t>, UInt, UInt, UInt>;
const SubspaceYLeftKeysKernel& subspace_y_left_keys_kernel(std::uint32_t invocations);

// After the sort: each run of equal keys (but holes) reordered by right parent, by the
// invocation at its start.
using SubspaceRightTiesKernel =
    Kernel<ReadBuffer<std::uint64_t>, Buffer<std::uint32_t>, ReadBuffer<std::uint32_t>, UInt>;
const SubspaceRightTiesKernel& subspace_right_ties_kernel(std::uint32_t invocations);

// The dense table: position j takes the j-th slot in (y, left, right) order.
using SubspaceGatherKernel = Kernel<ReadBuffer<std::uint64_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                                    ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
                                    WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt>;
const SubspaceGatherKernel& subspace_gather_kernel(int k, int table, std::uint32_t invocations);

}  // namespace detail

// The steps that renumber a Subspace child table from its sparse slots (as matching wrote
// them) into dense, (y, left, right)-ordered ys, parents and metadata.
struct SparseTable {
  const DeviceBuffer<std::uint32_t>& ys;
  const DeviceBuffer<std::uint32_t>& parents;
  const DeviceBuffer<std::uint32_t>& metadata;
  const DeviceBuffer<std::uint32_t>& pair_sizes;
};
struct DenseTable {
  const DeviceBuffer<std::uint32_t>& ys;
  const DeviceBuffer<std::uint32_t>& parents;
  const DeviceBuffer<std::uint32_t>& metadata;
};

// Table 1 in (y, x) order: ys becomes the sorted ys, xs the x at each position.
std::vector<RecordStep> subspace_table1_steps(Device& device, int k, const DeviceBuffer<std::uint32_t>& ys,
                                              const DeviceBuffer<std::uint32_t>& xs);

// Renumbers the `count` slots of the sparse table. The sorts' keys and slots are transients
// of the sequence the steps record into.
std::vector<RecordStep> subspace_renumber_steps(Device& device, int k, int table, SparseTable sparse, DenseTable dense,
                                                std::uint32_t count);

}  // namespace sprig::pos
