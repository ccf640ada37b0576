// Grouping a table's entries by bucket of y (y / 15113), each bucket in position order and
// cut at the mode's capacity (the first 272 by position stay in Abundance mode, up to 512 in
// Subspace mode). A stable radix sort of (bucket, position) pairs over the bucket's bits puts
// every bucket's entries together in position order (Subspace tables are already in y order:
// no sort); a pass finds each bucket's run and a pass copies the first entries of every run
// into the bucket's slots. A y of all ones marks a position without an entry.
#pragma once

#include <bit>
#include <functional>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/workgroups.hpp"
#include "sprig/stdlib/sort/radix_sort.hpp"

namespace sprig::pos {

// A bucket slot holds a table entry as two words: its position in its table, then its y.
inline constexpr std::uint32_t slot_words = 2;

// Bits of a bucket key; the all-ones key marks a hole (no entry at that position).
inline std::uint32_t bucket_key_bits(int k) { return std::uint32_t(std::bit_width(num_buckets(k))); }
inline std::uint32_t hole_key(int k) { return (1u << bucket_key_bits(k)) - 1u; }

namespace detail {

// keys[p] = bucket of ys[p], or the hole key where there is no entry; values[p] = p.
// Tables 2..7 hold pair b's matches at b * slots_per_pair + i for i < pair_sizes[b]; the
// other slots are holes. Table 1 (slots_per_pair 0) has none.
inline const auto& bucket_keys_kernel(std::uint32_t invocations) {
  std::string name = "pos_bucket_keys";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys, ReadBuffer<std::uint32_t> pair_sizes, WriteBuffer<std::uint32_t> keys,
            WriteBuffer<std::uint32_t> values, UInt count, UInt slots_per_pair,
            UInt hole) {
          UInt p = global_id().x();
          if_(p < count, [&] {
            Var<std::uint32_t> key = min(ys[p] / param_bc, hole);  // an all-ones y: no entry
            if_(slots_per_pair != 0u, [&] {
              if_(p % slots_per_pair >= pair_sizes[p / slots_per_pair], [&] { key = hole; });
            });
            keys[p] = key.load();
            values[p] = p;
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name + "/" + std::to_string(invocations), trace);
}

// Over the sorted keys: where every bucket's run starts and ends (one writer each).
inline const auto& bucket_runs_kernel(std::uint32_t invocations) {
  std::string name = "pos_bucket_runs";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keys, WriteBuffer<std::uint32_t> starts, WriteBuffer<std::uint32_t> ends,
            UInt count, UInt hole) {
          UInt j = global_id().x();
          if_(j < count, [&] {
            UInt key = keys[j];
            if_(key != hole, [&] {
              if_(j == 0u, [&] { starts[key] = j; }).else_([&] {
                if_(keys[j - 1u] != key, [&] { starts[key] = j; });
              });
              if_(j + 1u == count, [&] { ends[key] = j + 1u; }).else_([&] {
                if_(keys[j + 1u] != key, [&] { ends[key] = j + 1u; });
              });
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name + "/" + std::to_string(invocations), trace);
}

// The first `capacity` entries of every run into its bucket's slots, and the bucket sizes.
inline const auto& bucket_slots_kernel(std::uint32_t invocations) {
  std::string name = "pos_bucket_slots";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keys, ReadBuffer<std::uint32_t> values, ReadBuffer<std::uint32_t> ys,
            ReadBuffer<std::uint32_t> starts, ReadBuffer<std::uint32_t> ends, WriteBuffer<std::uint32_t> slots,
            WriteBuffer<std::uint32_t> sizes, UInt count, UInt hole,
            UInt capacity) {
          UInt j = global_id().x();
          if_(j < count, [&] {
            UInt key = keys[j];
            if_(key != hole, [&] {
              UInt rank = j - starts[key];
              if_(rank < capacity, [&] {
                UInt position = values[j];
                UInt slot = (key * capacity + rank) * slot_words;
                slots[slot] = position;
                slots[slot + 1u] = ys[position].load();
              });
              if_(rank == 0u, [&] { sizes[key] = min(ends[key] - j, capacity); });
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name + "/" + std::to_string(invocations), trace);
}

}  // namespace detail

// A table's buckets: bucket b's entries are slots [b * capacity, b * capacity + sizes[b]).
struct Buckets {
  DeviceBuffer<std::uint32_t> slots;  // slot_words per slot
  DeviceBuffer<std::uint32_t> sizes;
};

// Scratch of the bucketing of `count` positions, reused for every record (the sort sorts
// whole buffers, so table 1 and tables 2..7 each have their own).
struct BucketScratch {
  DeviceBuffer<std::uint32_t> keys, values, starts, ends;
  SortScratch<std::uint32_t> sort;
  BucketScratch(Device& device, int k, std::size_t count)
      : keys(device.alloc<std::uint32_t>(count)),
        values(device.alloc<std::uint32_t>(count)),
        starts(device.alloc<std::uint32_t>(num_buckets(k))),
        ends(device.alloc<std::uint32_t>(num_buckets(k))) {}
};

inline Buckets alloc_buckets(Device& device, int k, Mode mode) {
  return {device.alloc<std::uint32_t>(std::size_t(num_buckets(k)) * bucket_capacity(mode) * slot_words),
          device.alloc<std::uint32_t>(num_buckets(k))};
}

// One step of recording a record's launches; a record is a list of them, so that the steps
// of several records can be interleaved in one sequence (pos::record_interleaved).
using RecordStep = std::function<void(Sequence&)>;

// The steps that bucket the positions 0 .. scratch.keys.size() - 1 with y values `ys`;
// `pair_sizes` and `slots_per_pair` name the holes of Abundance's tables 2..7
// (slots_per_pair 0 for table 1 and for Subspace's dense tables, already in y order). The
// buffers are captured by reference: they must outlive the recording.
inline std::vector<RecordStep> bucketing_steps(Device& device, int k, Mode mode, const DeviceBuffer<std::uint32_t>& ys,
                                               const DeviceBuffer<std::uint32_t>& pair_sizes,
                                               std::uint32_t slots_per_pair, BucketScratch& scratch,
                                               const Buckets& out) {
  const auto count = std::uint32_t(scratch.keys.size());
  const std::uint32_t hole = hole_key(k), capacity = bucket_capacity(mode);
  const std::uint32_t invocations = elementwise_invocations(device.info());
  std::vector<RecordStep> steps{
      [&, count, hole, slots_per_pair, invocations](Sequence& s) {
        s.run(detail::bucket_keys_kernel(invocations), grid(count), ys, pair_sizes, scratch.keys, scratch.values, count,
              slots_per_pair, hole);
      },
      [&, count, hole, invocations](Sequence& s) {
        s.fill(scratch.starts, 0);
        s.fill(scratch.ends, 0);
        s.fill(out.sizes, 0);
        s.run(detail::bucket_runs_kernel(invocations), grid(count), scratch.keys, scratch.starts, scratch.ends, count,
              hole);
      },
      [&, count, hole, capacity, invocations](Sequence& s) {
        s.run(detail::bucket_slots_kernel(invocations), grid(count), scratch.keys, scratch.values, ys, scratch.starts,
              scratch.ends, out.slots, out.sizes, count, hole, capacity);
      },
  };
  if (mode == Mode::Abundance)
    steps.insert(steps.begin() + 1, [&, k](Sequence& s) {
      radix_sort(device, s, scratch.keys, scratch.values, scratch.sort, SortOptions{0, bucket_key_bits(k)});
    });
  return steps;
}

}  // namespace sprig::pos
