// Grouping a table's entries by bucket of y (y / 15113), each bucket in position order and
// cut at the mode's capacity (the first 272 by position stay in Abundance mode, up to 512 in
// Subspace mode). A y of all ones marks a position without an entry.
//
// Abundance: one pass stages each entry's position in its bucket's staging, in whatever
// order the entries arrive (an atomic count per bucket); a bucket stages 1.5 x capacity
// positions, 408 where 272 slots go, about 11 standard deviations above the mean of 236.
// Then one workgroup per bucket ranks its staged positions and writes the first 272 by
// position as slots. A bucket that received more than it could stage walks the table in
// position order instead. The staging is the slots' own words where the slots keep their
// positions (it is their size), or a transient of its own where they do not. A sort of
// (bucket, position) pairs, which this replaced, held four words an entry.
//
// Subspace: the tables are already in y order, so a pass finds each bucket's run and a pass
// copies the first entries of every run into the bucket's slots.
#pragma once

#include <bit>
#include <functional>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/packed_entries.hpp"
#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/workgroups.hpp"
#include "sprig/stdlib/pos/y_value.hpp"

namespace sprig::pos {

// A bucket's slots hold its entries in 1.5 words each: first `capacity` positions in the
// table, then the entries' r = y mod 15113 two to a word (rank 2i in the low half), from
// which the bucket gives y back: y = bucket * 15113 + r. Two words a slot (position and y)
// took a third more, and the buckets are alive at a record's peak (docs/memory.md).
//
// Abundance's tables under parent ranks (links.hpp) keep the positions apart: packed to
// parent_position_bits, in a buffer that lives until the record's proofs are expanded, while
// the slots, r values alone, live until the next table's matching.
enum class SlotPositions { InSlots, Apart };
inline constexpr std::uint32_t bucket_words(Mode mode, SlotPositions positions = SlotPositions::InSlots) {
  return bucket_capacity(mode) / 2 * (positions == SlotPositions::InSlots ? 3 : 1);
}
static_assert(bucket_capacity(Mode::Abundance) % 2 == 0 && bucket_capacity(Mode::Subspace) % 2 == 0);
static_assert(param_bc <= (1u << 16), "r fits half a word");
// Abundance's bucket positions kept apart: slot q = bucket * 272 + rank, grouped by bucket.
inline constexpr PackedLayout bucket_position_layout(int k) {
  return PackedLayout(parent_position_bits(k), bucket_capacity(Mode::Abundance));
}
inline constexpr std::size_t bucket_position_words(int k) {
  return std::size_t(num_buckets(k)) * bucket_position_layout(k).group_words();
}
// Positions a bucket stages before it ranks them (the in-slot layout's own size).
inline constexpr std::uint32_t staged_positions = bucket_words(Mode::Abundance);

// The position and y of slot `rank` of `bucket`, from the host's copy of a table's slots
// (and, where they are apart, of its bucket positions).
inline std::uint32_t slot_position(const std::vector<std::uint32_t>& slots, Mode mode, std::uint32_t bucket,
                                   std::uint32_t rank) {
  return slots[std::size_t(bucket) * bucket_words(mode) + rank];
}
inline std::uint32_t apart_slot_position(const std::vector<std::uint32_t>& positions, int k, std::uint32_t bucket,
                                         std::uint32_t rank) {
  const std::size_t slot = std::size_t(bucket) * bucket_capacity(Mode::Abundance) + rank;
  return std::uint32_t(unpack_entry(positions, bucket_position_layout(k), slot));
}
inline std::uint64_t slot_y(const std::vector<std::uint32_t>& slots, Mode mode, std::uint32_t bucket,
                            std::uint32_t rank, SlotPositions positions = SlotPositions::InSlots) {
  const std::uint32_t r_start = positions == SlotPositions::InSlots ? bucket_capacity(mode) : 0;
  const std::uint32_t word = slots[std::size_t(bucket) * bucket_words(mode, positions) + r_start + rank / 2];
  return std::uint64_t(bucket) * param_bc + ((word >> (rank % 2 * 16)) & 0xffffu);
}

// What Abundance's bucketing also writes for each filled bucket slot q = b * capacity + rank,
// into `by_slot` (links.hpp): nothing, the slot's position (table 1: its x), or the link at
// the slot's position in `links` (the table's links in position order).
enum class SlotLinks { None, Positions, FromLinks };
struct SlotLinkOutput {
  SlotLinks kind = SlotLinks::None;
  const DeviceBuffer<std::uint32_t>* links = nullptr;    // FromLinks
  const DeviceBuffer<std::uint32_t>* by_slot = nullptr;  // Positions, FromLinks
};

// Bits of a bucket key; the all-ones key marks a hole (no entry at that position).
std::uint32_t bucket_key_bits(int k);
std::uint32_t hole_key(int k);

namespace detail {

// The same on the device: where slot `rank` of `bucket` keeps its position (in the slots),
// the word that holds its r (with its neighbour's: ranks 2i and 2i + 1), and its r (its y is
// y_of_bucket(k, bucket, r)).
inline UInt slot_position_word(Mode mode, const UInt& bucket, const UInt& rank) { return bucket * bucket_words(mode) + rank; }
inline UInt slot_r_word(Mode mode, const UInt& bucket, const UInt& rank,
                        SlotPositions positions = SlotPositions::InSlots) {
  const std::uint32_t r_start = positions == SlotPositions::InSlots ? bucket_capacity(mode) : 0;
  return bucket * bucket_words(mode, positions) + r_start + (rank >> 1u);
}
template <class Slots>
UInt slot_r(const Slots& slots, Mode mode, const UInt& bucket, const UInt& rank,
            SlotPositions positions = SlotPositions::InSlots) {
  UInt word = slots[slot_r_word(mode, bucket, rank, positions)];
  return (word >> ((rank & 1u) * 16u)) & 0xffffu;
}
// Abundance's slot position kept apart (bucket_position_layout).
template <class Positions>
UInt apart_slot_position(const Positions& positions, int k, const UInt& bucket, const UInt& rank) {
  return load_packed(positions, bucket_position_layout(k), bucket * bucket_capacity(Mode::Abundance) + rank)[0];
}

// keys[p] = bucket of ys[p], or the hole key where there is no entry; values[p] = p.
// Abundance's tables 2..7 hold pair b's matches at b * slots_per_pair + i for
// i < pair_sizes[b]; the other slots are holes. Table 1 (slots_per_pair 0) has none.
using BucketKeysKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>,
                                WriteBuffer<std::uint32_t>, UInt, UInt, UInt>;
const BucketKeysKernel& bucket_keys_kernel(int k, std::uint32_t invocations);

// Subspace, over keys in y order: where every bucket's run starts and ends (one writer each).
using BucketRunsKernel =
    Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt>;
const BucketRunsKernel& bucket_runs_kernel(std::uint32_t invocations);

// The first `capacity` entries of every run into its bucket's slots, and the bucket sizes.
using BucketSlotsKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt, UInt>;
const BucketSlotsKernel& bucket_slots_kernel(std::uint32_t invocations);

// Abundance: each entry's position into its bucket's staging (staged_positions words a
// bucket), counting the arrivals of every bucket.
using BucketScatterKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, Buffer<std::uint32_t>,
                                   WriteBuffer<std::uint32_t>, UInt, UInt, UInt>;
const BucketScatterKernel& bucket_scatter_kernel(int k, std::uint32_t capacity, std::uint32_t invocations);

// Abundance, one workgroup per bucket: the staged positions ranked, the first `capacity` by
// position written as slots (and their slot links), and the bucket's size. In-slot
// positions: the staging is `slots` itself; apart: it is `staging`, and the positions go to
// `positions` packed. Positions are grouped by position >> bin_shift, one bin per
// invocation, to rank them.
using BucketOrderKernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, Buffer<std::uint32_t>,
           WriteBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
           Buffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt>;
const BucketOrderKernel& bucket_order_kernel(int k, std::uint32_t capacity, std::uint32_t invocations,
                                             SlotLinks slot_links, SlotPositions positions);

}  // namespace detail

// A table's buckets: bucket b's entries are its slots of rank 0 .. sizes[b] - 1.
struct Buckets {
  DeviceBuffer<std::uint32_t> slots;  // bucket_words(mode, where) per bucket
  DeviceBuffer<std::uint32_t> sizes;
  SlotPositions where = SlotPositions::InSlots;
  DeviceBuffer<std::uint32_t> positions;  // apart: bucket_position_words(k)
};

// A table's buckets as transients of `sequence`: they live from the bucketing that writes
// them to the matching that reads them (positions kept apart: to the last step that reads them).
Buckets transient_buckets(Sequence& sequence, int k, Mode mode, const std::string& name,
                          SlotPositions where = SlotPositions::InSlots);

// One step of recording a record's launches; a record is a list of them, so that the steps
// of several records can be interleaved in one sequence (pos::record_interleaved).
using RecordStep = std::function<void(Sequence&)>;

// The steps that bucket the positions 0 .. count - 1 with y values `ys`; `pair_sizes` and
// `slots_per_pair` name the holes of Abundance's tables 2..7 (slots_per_pair 0 for table 1
// and for Subspace's dense tables, already in y order). The bucketing's own temporaries
// (arrival counts; Subspace's keys and runs) are transients of the sequence the steps
// record into; `ys`, `pair_sizes`, `out` and the buffers `links` names are captured by
// reference: they must outlive the recording. `links` is Abundance's only.
std::vector<RecordStep> bucketing_steps(Device& device, int k, Mode mode, const DeviceBuffer<std::uint32_t>& ys,
                                        const DeviceBuffer<std::uint32_t>& pair_sizes, std::uint32_t slots_per_pair,
                                        std::uint32_t count, const Buckets& out, SlotLinkOutput links = {});

}  // namespace sprig::pos
