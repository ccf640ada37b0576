// Subspace's numbering of table entries: every table is sorted by (y, left, right) (table 1
// by (y, x)) and an entry's position is its index in that order, as Subspace's globally
// sorted tables number them. Buckets are then runs of consecutive positions, kept in
// (y, position) order, and ties in y are broken the way Subspace breaks them.
//
// Table 1: a stable radix sort of (y, x) pairs by y. Tables 2..6: matching writes each
// pair's matches at b * 512 + i, in left order; the entries are compacted (a scan of the
// pairs' sizes gives each pair its start) into the dense table's room, a stable radix sort
// by y alone orders them by (y, left), a pass orders each run of equal y by (left, right)
// (a run is one entry but for y collisions), and a gather writes the dense table: y,
// parents and metadata by position, an all-ones y past the last entry. Matching keeps no
// metadata: the gather computes each entry's again from its parents' (compute_fn), one
// hash an entry instead of the sparse table's metadata, a record's largest buffer.
//
// Room. A dense table holds about 2^K entries, not the 2.17 x 2^K slots of the sparse one,
// but how many varies from seed to seed, the spread doubling from each table to the next:
// the reference's standard deviations of table 2's entries / 2^K are 0.55% at K = 15 (3,000
// seeds), 0.26% at K = 17 (300) and 0.11% at K = 20 (20), about 2^-K/2 (table 6: 8.3%,
// 4.6%, 2.1%), and the tail is long (a K = 15 table 7 5.4 deviations above its mean). A
// table starts with room for 2^K (1 + 8 deviations) entries and the plotter grows it, and
// plots the record again, when a record's table outgrows it (plotter.hpp).
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

// The sparse table's entries, compacted in slot order (which is left order: matching writes
// a pair's matches in left order, and the pairs' left buckets are runs of positions): their
// ys as keys and their slots; entries[table] gets the table's entry count, which may exceed
// the room the compaction writes.
using SubspaceCompactKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
           WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt>;
const SubspaceCompactKernel& subspace_compact_kernel(std::uint32_t invocations);

// After the stable sort by y: each run of equal y (but holes) reordered by (left, right), by
// the invocation at its start.
using SubspaceTiesKernel = Kernel<ReadBuffer<std::uint32_t>, Buffer<std::uint32_t>, ReadBuffer<std::uint32_t>, UInt>;
const SubspaceTiesKernel& subspace_ties_kernel(std::uint32_t invocations);

// The dense table: position j takes the j-th slot in (y, left, right) order, its y and
// parents, and its metadata computed again (compute_fn) from the parents' in the table
// below (table 1's metadata: xs).
using SubspaceGatherKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
           WriteBuffer<std::uint32_t>, UInt>;
const SubspaceGatherKernel& subspace_gather_kernel(int k, int table, std::uint32_t invocations);

}  // namespace detail

// Entries Subspace's table `table` (2..6) has room for at first (see the top of the file),
// at most the sparse table's slots.
std::uint32_t subspace_table_room(int k, int table);

// The steps that renumber a Subspace child table from its sparse slots (as matching wrote
// them) into dense, (y, left, right)-ordered ys, parents and metadata.
struct SparseTable {
  const DeviceBuffer<std::uint32_t>& ys;
  const DeviceBuffer<std::uint32_t>& parents;
  const DeviceBuffer<std::uint32_t>& pair_sizes;
};
// The dense table below (table 1 for table 2: its sorted ys, a one-word metadata stand-in,
// and xs the x at each position), whose entries' ys and metadata give each child's.
struct ParentTable {
  const DeviceBuffer<std::uint32_t>& ys;
  const DeviceBuffer<std::uint32_t>& metadata;
  const DeviceBuffer<std::uint32_t>& xs;
};
struct DenseTable {
  const DeviceBuffer<std::uint32_t>& ys;
  const DeviceBuffer<std::uint32_t>& parents;
  const DeviceBuffer<std::uint32_t>& metadata;
};

// Table 1 in (y, x) order: ys becomes the sorted ys, xs the x at each position.
std::vector<RecordStep> subspace_table1_steps(Device& device, int k, const DeviceBuffer<std::uint32_t>& ys,
                                              const DeviceBuffer<std::uint32_t>& xs);

// Renumbers the sparse table (sparse.ys.size() slots, 512 per pair) into the dense table's
// room (dense.ys.size() positions; all-ones ys past the last entry) and writes the table's
// entry count to entries[table]: a count above the room means the dense table lost its
// last entries and the record must be plotted again with more room. The sort's keys and
// slots are transients of the sequence the steps record into.
std::vector<RecordStep> subspace_renumber_steps(Device& device, int k, int table, SparseTable sparse,
                                                ParentTable below, DenseTable dense,
                                                const DeviceBuffer<std::uint32_t>& entries);

}  // namespace sprig::pos
