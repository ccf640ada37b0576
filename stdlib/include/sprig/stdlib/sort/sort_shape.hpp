// The radix sort's constants and shapes: 8-bit digits, the key types, and the tile shape
// and shared-memory budget a device allows (radix_sort.hpp describes the algorithm).
#pragma once

#include <stdexcept>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/decoupled_lookback.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::detail {

constexpr std::uint32_t radix_bits = 8;
constexpr std::uint32_t radix = 1u << radix_bits;
// Look-back words of the sort: state in the top two bits, a digit count below. Counts are
// below 2^30, which bounds the sort to 2^30 keys.
constexpr std::uint32_t sort_count_mask = (1u << 30) - 1;
constexpr std::uint32_t sort_aggregate_ready = 1u << 30, sort_prefix_ready = 2u << 30;

template <class K>
concept RadixKey = std::same_as<K, std::uint32_t> || std::same_as<K, std::uint64_t>;

template <RadixKey K>
constexpr std::uint32_t max_passes() {
  return (sizeof(K) * 8 + radix_bits - 1) / radix_bits;
}

struct SortShape {
  TileShape tile;               // invocations (a power of two) own digits d = l, l + invocations, ...
  std::uint32_t max_subgroups;  // invocations / the device's smallest subgroup
  std::uint32_t key_words, value_words;
  // 32-bit words of the shared scratch: per-subgroup digit counts (two 16-bit counts a
  // word) while ranking, the reordered keys afterwards, then the reordered values.
  std::uint32_t scratch_words() const { return std::max(max_subgroups * radix / 2, tile.elements() * key_words); }
  LookBackTraits lookback;
  bool prefixed = false;  // tile offsets come from a scan (CountScanScatter), no look-back
  // Tiles a workgroup of a look-back pass sorts one after another, loading each next
  // tile's keys while the current one writes out (radix_sort_layout chooses it).
  std::uint32_t tiles_per_workgroup = 1;
  std::string key() const {
    return std::to_string(tile.invocations) + "x" + std::to_string(tile.items) + "x" + std::to_string(max_subgroups) +
           "v" + std::to_string(value_words) + lookback.key() + (prefixed ? "p" : "") + "t" +
           std::to_string(tiles_per_workgroup);
  }
};

// Beside the scratch: the per-digit tables (3 x 256 words), the subgroup totals (one word
// per invocation) and a few words more.
inline std::uint32_t sort_shared_bytes(const SortShape& s) {
  return (s.scratch_words() + 3 * radix + s.tile.invocations + 16) * 4;
}

// Workgroups of 1024 with as many items as fit in shared memory (at least 4), else 512
// with 20, 16 or 8 items, else 256 invocations with as many items as fit (at most 16),
// else fewer invocations (on GPUs of small workgroups, or of small subgroups, whose
// per-subgroup digit counts fill shared memory). Larger tiles mean fewer look-backs;
// workgroups of 1024 cap a kernel at 64 registers on NVIDIA GPUs, so that a
// multiprocessor runs twice the subgroups. The tile shapes measured against each other are
// in docs/benchmarks.md.
template <RadixKey K>
SortShape sort_shape(const DeviceInfo& device, bool with_values) {
  auto shape_of = [&](std::uint32_t invocations, std::uint32_t items) {
    return SortShape{{invocations, items}, std::max(1u, invocations / std::max(1u, device.min_subgroup_size)),
                     std::uint32_t(sizeof(K) / 4), with_values ? 1u : 0u, lookback_traits(device)};
  };
  auto fits = [&](const SortShape& s) { return sort_shared_bytes(s) <= device.max_shared_memory; };
  const std::uint32_t most = fit_invocations(4 * radix, device);
  if (most == 4 * radix) {
    for (std::uint32_t items = 16; items >= 4; --items) {
      SortShape widest = shape_of(4 * radix, items);
      if (fits(widest)) return widest;
    }
  }
  if (most >= 2 * radix) {
    for (std::uint32_t items : {20u, 16u, 8u}) {
      SortShape wide = shape_of(2 * radix, items);
      if (fits(wide)) return wide;
    }
  }
  for (std::uint32_t invocations = std::min(most, radix); invocations >= device.subgroup_size; invocations /= 2) {
    SortShape s = shape_of(invocations, 16);
    while (s.tile.items > 2 && !fits(s)) s.tile.items /= 2;
    if (fits(s)) return s;
  }
  SortShape smallest = shape_of(device.subgroup_size, 2);
  throw std::invalid_argument("radix_sort: even a tile of " + std::to_string(smallest.tile.elements()) +
                              " keys needs " + std::to_string(sort_shared_bytes(smallest)) +
                              " bytes of shared memory; " + device.name + " has " +
                              std::to_string(device.max_shared_memory));
}

// Counters of all passes' digits (4-byte words, `parts` per digit) as the histogram keeps
// them in shared memory: four parts where they fit, fewer on small GPUs.
template <RadixKey K>
std::uint32_t histogram_parts(const DeviceInfo& device) {
  std::uint32_t parts = 4;
  while (parts > 1 && max_passes<K>() * radix * parts * 4 > device.max_shared_memory) parts /= 2;
  return parts;
}

template <RadixKey K>
UInt digit_of(const Expr<K>& key, const UInt& shift, const UInt& mask) {
  if constexpr (std::same_as<K, std::uint32_t>) return (key >> shift) & mask;
  else return cast<std::uint32_t>(key >> cast<std::uint64_t>(shift)) & mask;
}

}  // namespace sprig::detail
