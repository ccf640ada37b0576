// The radix sort's counting kernels: the histogram of every pass's digits and its offsets
// (OneSweep), and each tile's digit counts (CountScanScatter's count step).
#pragma once

#include "sprig/stdlib/sort/sort_shape.hpp"

namespace sprig::detail {

// `bins` (a multiple of 256) digit counters in shared memory for a workgroup of at most 256
// invocations (a power of two). Each bin has `parts` counters side by side and invocation l
// adds to counter l % parts: lanes of a subgroup that meet the same digit then mostly hit
// different words, and shared atomics on one word serialize.
class SplitDigitCounters {
 public:
  SplitDigitCounters(std::uint32_t bins, std::uint32_t invocations, std::uint32_t parts = 4)
      : bins_(bins), invocations_(invocations), parts_(parts),
        counters_(shared_array<std::uint32_t>(bins * parts, "digit_counts")) {}
  // Every invocation, before a barrier.
  void zero() const {
    for (std::uint32_t w = 0; w < bins_ * parts_ / invocations_; ++w) counters_[local_index() + w * invocations_] = 0u;
  }
  void add(const UInt& bin) const { atomic_add(counters_[bin * parts_ + local_index() % parts_], 1u); }
  // After a barrier.
  UInt total(const UInt& bin) const {
    Var<std::uint32_t> sum = 0u;
    for (std::uint32_t q = 0; q < parts_; ++q) sum = sum.load() + UInt(counters_[bin * parts_ + q]);
    return sum.load();
  }

 private:
  std::uint32_t bins_, invocations_, parts_;
  SharedArray<std::uint32_t> counters_;
};

// Counts the digits of all passes: histograms[pass * 256 + digit]. Workgroups of
// `invocations` (a power of two up to 256), `parts` counters per digit.
template <RadixKey K>
auto digit_histogram_kernel(std::uint32_t invocations, std::uint32_t parts) {
  constexpr std::uint32_t passes = max_passes<K>(), items = 16;
  std::string name = "radix_histogram<" + type_name<K>() + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<K> keys, Buffer<std::uint32_t> histograms, UInt count,
                            UInt begin_bit, UInt end_bit,
                            UInt tiles_per_workgroup) {
      SplitDigitCounters local(passes * radix, invocations, parts);
      UInt l = local_index();
      local.zero();
      barrier();
      TileShape shape{invocations, items};
      UInt first_tile = linear_workgroup_id() * tiles_per_workgroup;
      UInt end_tile = min(first_tile + tiles_per_workgroup, tiles_covering(count, shape));
      for_(first_tile, end_tile, [&](UInt tile) {
        // All of the tile's loads go out before the first atomic: they are what hides
        // the memory latency. Indices past the end read the last key and count nothing.
        std::vector<Var<K>> tile_keys;
        tile_keys.reserve(items);
        for (std::uint32_t j = 0; j < items; ++j) {
          UInt i = tile * shape.elements() + l + j * invocations;
          tile_keys.emplace_back(Expr<K>(keys[min(i, count - 1u)]));
        }
        for (std::uint32_t j = 0; j < items; ++j) {
          UInt i = tile * shape.elements() + l + j * invocations;
          if_(i < count, [&] {
            Expr<K> key = tile_keys[j].load();
            for (std::uint32_t p = 0; p < passes; ++p) {
              UInt shift = begin_bit + p * radix_bits;
              if_(shift < end_bit, [&] {
                UInt mask = (1u << min(end_bit - shift, radix_bits)) - 1u;
                local.add(digit_of<K>(key, shift, mask) + p * radix);
              });
            }
          });
        }
      });
      barrier();
      for (std::uint32_t p = 0; p < passes; ++p) {
        for (std::uint32_t first_digit = 0; first_digit < radix; first_digit += invocations) {
          UInt d = l + (first_digit + p * radix);
          Var<std::uint32_t> c = local.total(d);
          if_(c.load() != 0u, [&] { atomic_add(histograms[d], c.load()); });
        }
      }
    }, workgroup(invocations));
  };
  return cached_kernel<decltype(trace())>(name + std::to_string(invocations) + "/" + std::to_string(parts), trace);
}

// Turns each pass's digit counts into the digits' first output positions (exclusive scan
// of 256 counts); workgroup p scans pass p, `invocations` (a power of two up to 256)
// counts at a time.
inline auto digit_offsets_kernel(std::uint32_t invocations) {
  std::string name = "radix_digit_offsets";
  auto trace = [=] {
    return kernel(name, [=](Buffer<std::uint32_t> histograms) {
      auto op = plus<std::uint32_t>();
      SubgroupScan<std::uint32_t, decltype(op)> lanes(op, invocations);
      SubgroupTotalsScan<std::uint32_t, decltype(op)> totals(lanes, invocations);
      Var<std::uint32_t> carry = 0u;
      for (std::uint32_t first_digit = 0; first_digit < radix; first_digit += invocations) {
        UInt i = workgroup_id().x() * radix + first_digit + subgroup_id() * subgroup_size() +
                                subgroup_invocation_id();
        UInt c = histograms[i];
        UInt s = lanes.inclusive(c);
        totals.scan(lanes.last(s));
        histograms[i] = carry.load() + totals.exclusive_prefix() + s - c;
        if (first_digit + invocations < radix) {
          carry = carry.load() + totals.workgroup_total();
          barrier();  // the totals are rewritten by the next counts
        }
      }
    }, workgroup(invocations));
  };
  return cached_kernel<decltype(trace())>(name + std::to_string(invocations), trace);
}

// CountScanScatter's count step: counts[digit * tiles + tile] is how many keys of the
// tile have the digit, over the same tiles as the digit pass (tile_shape's invocations: a
// power of two up to 256).
template <RadixKey K>
auto tile_digit_counts_kernel(const TileShape& tile_shape) {
  std::string name = "radix_tile_counts<" + type_name<K>() + ">";
  const std::uint32_t invocations = tile_shape.invocations;
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<K> keys, WriteBuffer<std::uint32_t> counts, UInt count,
                            UInt shift, UInt mask, UInt tiles) {
      SplitDigitCounters local(radix, invocations);
      UInt l = local_index();
      local.zero();
      barrier();
      UInt tile = linear_workgroup_id();
      if_(tile >= tiles, [] { return_(); });
      UInt first = tile * tile_shape.elements();
      std::vector<Var<K>> tile_keys;
      tile_keys.reserve(tile_shape.items);
      for (std::uint32_t j = 0; j < tile_shape.items; ++j)
        tile_keys.emplace_back(Expr<K>(keys[min(first + l + j * invocations, count - 1u)]));
      for (std::uint32_t j = 0; j < tile_shape.items; ++j) {
        if_(first + l + j * invocations < count,
            [&] { local.add(digit_of<K>(tile_keys[j].load(), shift, mask)); });
      }
      barrier();
      for (std::uint32_t first_digit = 0; first_digit < radix; first_digit += invocations) {
        UInt d = l + first_digit;
        counts[d * tiles + tile] = local.total(d);
      }
    }, workgroup(invocations));
  };
  return cached_kernel<decltype(trace())>(name + std::to_string(invocations) + "x" + std::to_string(tile_shape.items),
                                          trace);
}

// Fills histograms[pass * 256 + digit] with the counts of the first n keys' digits.
template <RadixKey K>
void record_digit_histogram(const DeviceInfo& device, Sequence& sequence, const DeviceBuffer<K>& keys, std::size_t n,
                            const DeviceBuffer<std::uint32_t>& histograms, std::uint32_t begin, std::uint32_t end) {
  sequence.fill(histograms, 0);
  TileShape histogram_tile{fit_invocations(radix, device), 16};
  std::size_t histogram_tiles = histogram_tile.tiles_for(n);
  std::size_t per_group = (histogram_tiles + 1023) / 1024;
  std::size_t groups = (histogram_tiles + per_group - 1) / per_group;
  sequence.run(digit_histogram_kernel<K>(histogram_tile.invocations, histogram_parts<K>(device)),
               tile_grid(groups, histogram_tile), keys, histograms, std::uint32_t(n), begin, end,
               std::uint32_t(per_group));
}

}  // namespace sprig::detail
