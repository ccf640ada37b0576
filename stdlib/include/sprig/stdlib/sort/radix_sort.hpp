// Stable LSD radix sort of uint32 or uint64 keys, optionally carrying uint32 payloads,
// over an optional bit range [begin_bit, end_bit):
//
//   sprig::radix_sort(device, keys);                      // in place
//   sprig::radix_sort(device, keys, values, {0, 24});     // pairs, low 24 bits only
//   sprig::radix_sort(device, sequence, keys);            // recorded, temporaries transient
//   sprig::radix_sort(device, sequence, keys, scratch);   // recorded, temporaries kept
//   sprig::radix_sort(device, keys, {.memory_budget = 64 << 20});  // temporaries within 64 MiB
//
// Onesweep (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort
// for GPUs", 2022): one histogram pass counts every digit of every pass at once; then each
// 8-bit digit takes a single pass over the keys in which a tile
//   1. ranks its keys per digit, stably (subgroup ballots match equal digits),
//   2. publishes its per-digit counts and reorders the tile by digit in shared memory,
//   3. looks back over earlier tiles' counts (decoupled look-back, one invocation per
//      digit) and writes the tile out, so that runs of equal digits go to consecutive
//      addresses.
// Reordering before the look-back means a tile waiting on its predecessors holds its keys
// in shared memory, not in registers. Where tiles are many, a workgroup sorts several one
// after another and loads the next tile's keys while the current one writes out.
// SortMode::CountScanScatter does without the look-back: one kernel counts each tile's
// digits, an exclusive scan of those counts in digit-major order gives every (digit, tile)
// its output position, and the same ranking-and-reordering kernel places the keys. It
// reads the keys once more per pass and never waits on another workgroup; it measured
// slower than OneSweep at every size (docs/benchmarks.md), so Auto is OneSweep.
#pragma once

#include <algorithm>
#include <concepts>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/sort/budgeted_sort.hpp"
#include "sprig/stdlib/sort/digit_counts.hpp"
#include "sprig/stdlib/sort/onesweep.hpp"
#include "sprig/stdlib/sort/sort_shape.hpp"

namespace sprig {

// How a digit pass learns where each tile's keys go (see the top of the file); the choice
// never changes the result.
enum class SortMode { Auto, OneSweep, CountScanScatter };

struct SortOptions {
  std::uint32_t begin_bit = 0;
  std::uint32_t end_bit = ~0u;  // the key's width
  SortMode mode = SortMode::Auto;
  // Bytes the sort's temporaries may take (0: no limit). Below what the sort needs
  // (radix_sort_scratch_bytes), it sorts chunks that fit and merges them (budgeted_sort.hpp):
  // the same result, slower; a budget too small for two keys at a time throws
  // MemoryBudgetExceeded. A budgeted sort's temporaries are the sequence's transients.
  std::uint64_t memory_budget = 0;
  // Tiles each workgroup of a OneSweep pass sorts one after another, 1 to 16 (0: the sort
  // chooses, default_tiles_per_workgroup). Never changes the result.
  std::uint32_t tiles_per_workgroup = 0;
};

namespace detail {

template <RadixKey K>
class SortScratchOf;

}  // namespace detail

// The temporaries of radix_sort: a second buffer of keys (and of values), the digit
// histograms and the look-back words (or CountScanScatter's per-tile counts). A scratch
// passed to each call is grown as needed and kept, so repeated sorts do not allocate:
//
//   sprig::SortScratch<std::uint32_t> scratch;
//   for (auto& keys : batches) sprig::radix_sort(device, sequence, keys, scratch);
//
// One scratch may serve several sorts of one sequence: they run one after another.
// Without a scratch the temporaries are transients of the sequence (Sequence::transient),
// whose memory other work of the sequence reuses once the sort is done; a sequence with a
// Workspace keeps that memory across calls too.
template <detail::RadixKey K>
class SortScratch {
 public:
  // Device memory held (what the largest sort so far needed).
  std::size_t device_bytes() const {
    return keys_.bytes() + values_.bytes() + histograms_.bytes() + status_.bytes() + tile_counts_.bytes() +
           tile_offsets_.bytes();
  }

 private:
  friend class detail::SortScratchOf<K>;
  DeviceBuffer<K> keys_;
  DeviceBuffer<std::uint32_t> values_, histograms_, status_, tile_counts_, tile_offsets_;
};

namespace detail {

// The sort's temporaries, each at least the size asked for: a kept scratch's buffers
// (grown as needed), or with no scratch, transients of the sequence.
template <RadixKey K>
class SortScratchOf {
 public:
  SortScratchOf(Device& device, Sequence& sequence, SortScratch<K>* scratch)
      : device_(device), sequence_(sequence), scratch_(scratch ? scratch : &transients_), transient_(scratch == nullptr) {}
  const DeviceBuffer<K>& keys(std::size_t n) { return reserve(scratch_->keys_, n, "radix_sort keys"); }
  const DeviceBuffer<std::uint32_t>& values(std::size_t n) { return reserve(scratch_->values_, n, "radix_sort values"); }
  const DeviceBuffer<std::uint32_t>& histograms(std::size_t n) {
    return reserve(scratch_->histograms_, n, "radix_sort histograms");
  }
  const DeviceBuffer<std::uint32_t>& status(std::size_t n) { return reserve(scratch_->status_, n, "radix_sort status"); }
  const DeviceBuffer<std::uint32_t>& tile_counts(std::size_t n) {
    return reserve(scratch_->tile_counts_, n, "radix_sort tile counts");
  }
  const DeviceBuffer<std::uint32_t>& tile_offsets(std::size_t n) {
    return reserve(scratch_->tile_offsets_, n, "radix_sort tile offsets");
  }

 private:
  template <class T>
  const DeviceBuffer<T>& reserve(DeviceBuffer<T>& buffer, std::size_t size, const char* name) {
    if (buffer.size() < size) buffer = transient_ ? sequence_.transient<T>(size, name) : device_.alloc<T>(size);
    return buffer;
  }
  Device& device_;
  Sequence& sequence_;
  SortScratch<K> transients_;  // holds the transients when there is no kept scratch
  SortScratch<K>* scratch_;
  bool transient_;
};

inline SortMode resolve_sort_mode(SortMode mode) { return mode == SortMode::Auto ? SortMode::OneSweep : mode; }

// How a sort of n keys runs: its digit passes, tile shape and tiles.
struct RadixSortLayout {
  std::uint32_t begin = 0, end = 0, passes = 0;
  SortShape shape;
  std::size_t tiles = 0;
  std::size_t status_words = 0;  // per pass
  std::size_t tile_words = 0;    // CountScanScatter's per-(digit, tile) counts
};

// A workgroup that sorts several tiles loads each next tile's keys while the current one
// writes out, which pays for keys alone where tiles are many. On the H100, in tiles of
// 1024 x 10: two tiles a workgroup 1-2% faster from 2^25 keys (3,277 tiles), four 4% faster
// from 2^27 (13,108 tiles); at 2^24 (1,639 tiles) both lost, as they did for pairs and
// 64-bit keys at every size (docs/benchmarks.md, "Several tiles a workgroup").
template <RadixKey K>
std::uint32_t default_tiles_per_workgroup(bool pairs, std::size_t tiles) {
  if (!std::same_as<K, std::uint32_t> || pairs) return 1;
  if (tiles >= (std::size_t(1) << 13)) return 4;
  if (tiles >= (std::size_t(1) << 11)) return 2;
  return 1;
}

template <RadixKey K>
RadixSortLayout radix_sort_layout(const DeviceInfo& device, std::size_t n, bool pairs, const SortOptions& options) {
  RadixSortLayout layout;
  const std::uint32_t width = sizeof(K) * 8;
  layout.begin = options.begin_bit;
  layout.end = std::min(options.end_bit, width);
  if (n <= 1 || layout.begin >= layout.end) return layout;
  layout.passes = (layout.end - layout.begin + radix_bits - 1) / radix_bits;
  layout.shape = sort_shape<K>(device, pairs);
  layout.shape.prefixed = resolve_sort_mode(options.mode) == SortMode::CountScanScatter;
  layout.tiles = layout.shape.tile.tiles_for(n);
  if (options.tiles_per_workgroup > 16)
    throw std::invalid_argument("radix_sort: tiles_per_workgroup is " + std::to_string(options.tiles_per_workgroup) +
                                "; it takes 1 to 16, or 0 to let the sort choose");
  if (!layout.shape.prefixed)
    layout.shape.tiles_per_workgroup = options.tiles_per_workgroup != 0 ? options.tiles_per_workgroup
                                                                         : default_tiles_per_workgroup<K>(pairs, layout.tiles);
  layout.status_words = layout.shape.prefixed ? 1 : 1 + layout.tiles * radix;
  layout.tile_words = layout.shape.prefixed ? radix * layout.tiles : 1;
  return layout;
}

}  // namespace detail

// The bytes of temporaries a sort of n keys (pairs: with values) takes without a budget:
// the second buffer of keys (and values), the digit histograms and the look-back words, or
// CountScanScatter's tile counts and their scan.
template <detail::RadixKey K>
std::uint64_t radix_sort_scratch_bytes(const DeviceInfo& device, std::size_t n, bool pairs, SortOptions options = {}) {
  detail::RadixSortLayout layout = detail::radix_sort_layout<K>(device, n, pairs, options);
  if (layout.passes == 0) return 0;
  const std::uint64_t words = detail::max_passes<K>() * detail::radix + layout.status_words * layout.passes +
                              2 * layout.tile_words + (pairs ? n : 1);
  const std::uint64_t scan =
      layout.shape.prefixed ? detail::scan_scratch_bytes<std::uint32_t>(device, layout.tile_words) : 0;
  return n * sizeof(K) + words * sizeof(std::uint32_t) + scan;
}

namespace detail {

template <RadixKey K>
void record_radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys,
                       const DeviceBuffer<std::uint32_t>* values, SortOptions options, SortScratch<K>* scratch_buffers) {
  std::size_t n = keys.size();
  if (values && values->size() < n) throw std::invalid_argument("radix_sort: fewer values than keys");
  if (n >= (std::size_t(1) << 30)) throw std::invalid_argument("radix_sort: at most 2^30 - 1 keys");
  const bool pairs = values != nullptr;
  RadixSortLayout layout = radix_sort_layout<K>(device.info(), n, pairs, options);
  if (layout.passes == 0) return;
  // A budget below the temporaries: chunks sorted one at a time, then merged.
  const std::uint64_t budget = options.memory_budget;
  if (budget != 0 && radix_sort_scratch_bytes<K>(device.info(), n, pairs, options) > budget) {
    SortOptions plain = options;
    plain.memory_budget = 0;
    record_budgeted_radix_sort<K>(
        sequence, keys, values, layout.begin, layout.end, budget,
        [&](std::size_t chunk) { return radix_sort_scratch_bytes<K>(device.info(), chunk, pairs, plain); },
        [&](const DeviceBuffer<K>& part, const DeviceBuffer<std::uint32_t>* part_values) {
          record_radix_sort<K>(device, sequence, part, part_values, plain, nullptr);
        });
    return;
  }
  const std::uint32_t begin = layout.begin, end = layout.end, passes = layout.passes;
  SortShape shape = layout.shape;
  const std::size_t tiles = layout.tiles;

  SortScratchOf<K> scratch(device, sequence, scratch_buffers);
  // Digit counts of all passes, then their offsets.
  const DeviceBuffer<std::uint32_t>& histograms = scratch.histograms(max_passes<K>() * radix);
  if (!shape.prefixed) {
    record_digit_histogram(device.info(), sequence, keys, n, histograms, begin, end);
    const std::uint32_t scanning = fit_invocations(radix, device.info());
    sequence.run(digit_offsets_kernel(scanning), grid(std::uint64_t(max_passes<K>()) * scanning), histograms);
  }

  const std::size_t status_words = layout.status_words;
  const DeviceBuffer<std::uint32_t>& status = scratch.status(status_words * passes);
  if (!shape.prefixed) sequence.fill(status, 0, status_words * passes * sizeof(std::uint32_t), 0);
  // CountScanScatter's per-(digit, tile) counts and their exclusive scan, exactly sized
  // views of the scratch (the scan covers its buffer's whole length).
  const std::size_t tile_words = layout.tile_words;
  DeviceBuffer<std::uint32_t> tile_counts(scratch.tile_counts(tile_words), tile_words);
  DeviceBuffer<std::uint32_t> tile_offsets(scratch.tile_offsets(tile_words), tile_words);
  const DeviceBuffer<K>& other_keys = scratch.keys(n);
  const DeviceBuffer<std::uint32_t>& other_values = scratch.values(values ? n : 1);
  const auto& sweep = onesweep_kernel<K>(shape);
  for (std::uint32_t p = 0; p < passes; ++p) {
    std::uint32_t shift = begin + p * radix_bits, bits = std::min(radix_bits, end - shift), mask = (1u << bits) - 1u;
    bool forward = p % 2 == 0;
    const DeviceBuffer<K>& from = forward ? keys : other_keys;
    const DeviceBuffer<K>& to = forward ? other_keys : keys;
    const DeviceBuffer<std::uint32_t>& values_from = values ? (forward ? *values : other_values) : other_values;
    const DeviceBuffer<std::uint32_t>& values_to = values ? (forward ? other_values : *values) : other_values;
    if (shape.prefixed) {
      // Up to 256 invocations (one per digit) count the same tiles as the pass.
      const std::uint32_t counters = std::min(radix, shape.tile.invocations);
      TileShape counting{counters, shape.tile.elements() / counters};
      sequence.run(tile_digit_counts_kernel<K>(counting), tile_grid(tiles, counting), from, tile_counts,
                   std::uint32_t(n), shift, mask, std::uint32_t(tiles));
      exclusive_scan(device, sequence, tile_counts, tile_offsets, plus<std::uint32_t>());
    }
    const std::size_t workgroups = (tiles + shape.tiles_per_workgroup - 1) / shape.tiles_per_workgroup;
    sequence.run(sweep, tile_grid(workgroups, shape.tile), from, to, values_from, values_to, histograms, status,
                 tile_offsets, std::uint32_t(n), shift, mask, p, std::uint32_t(shape.prefixed ? 0 : p * status_words),
                 std::uint32_t(tiles));
  }
  if (passes % 2 == 1) {
    sequence.copy(other_keys, 0, keys, 0, n * sizeof(K));
    if (values) sequence.copy(other_values, 0, *values, 0, n * sizeof(std::uint32_t));
  }
}

// Both key types are compiled once, in stdlib/src/sort/radix_sort_instances.cpp.
extern template void record_radix_sort<std::uint32_t>(Device&, Sequence&, const DeviceBuffer<std::uint32_t>&,
                                                      const DeviceBuffer<std::uint32_t>*, SortOptions,
                                                      SortScratch<std::uint32_t>*);
extern template void record_radix_sort<std::uint64_t>(Device&, Sequence&, const DeviceBuffer<std::uint64_t>&,
                                                      const DeviceBuffer<std::uint32_t>*, SortOptions,
                                                      SortScratch<std::uint64_t>*);

}  // namespace detail

// Sorts `keys` in place, stably, by the bits [begin_bit, end_bit) (recorded).
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, SortScratch<K>& scratch,
                SortOptions options = {}) {
  detail::record_radix_sort<K>(device, sequence, keys, nullptr, options, &scratch);
}
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, SortOptions options = {}) {
  detail::record_radix_sort<K>(device, sequence, keys, nullptr, options, nullptr);
}
// Sorts `keys` in place and moves values[i] along with keys[i] (recorded).
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, const DeviceBuffer<std::uint32_t>& values,
                SortScratch<K>& scratch, SortOptions options = {}) {
  detail::record_radix_sort<K>(device, sequence, keys, &values, options, &scratch);
}
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, const DeviceBuffer<std::uint32_t>& values,
                SortOptions options = {}) {
  detail::record_radix_sort<K>(device, sequence, keys, &values, options, nullptr);
}

// The same, run at once.
template <detail::RadixKey K>
void radix_sort(Device& device, const DeviceBuffer<K>& keys, SortScratch<K>& scratch, SortOptions options = {}) {
  auto sequence = device.sequence();
  radix_sort(device, sequence, keys, scratch, options);
  sequence.run_and_wait();
}
template <detail::RadixKey K>
void radix_sort(Device& device, const DeviceBuffer<K>& keys, SortOptions options = {}) {
  auto sequence = device.sequence();
  radix_sort(device, sequence, keys, options);
  sequence.run_and_wait();
}
template <detail::RadixKey K>
void radix_sort(Device& device, const DeviceBuffer<K>& keys, const DeviceBuffer<std::uint32_t>& values,
                SortScratch<K>& scratch, SortOptions options = {}) {
  auto sequence = device.sequence();
  radix_sort(device, sequence, keys, values, scratch, options);
  sequence.run_and_wait();
}
template <detail::RadixKey K>
void radix_sort(Device& device, const DeviceBuffer<K>& keys, const DeviceBuffer<std::uint32_t>& values,
                SortOptions options = {}) {
  auto sequence = device.sequence();
  radix_sort(device, sequence, keys, values, options);
  sequence.run_and_wait();
}

}  // namespace sprig
