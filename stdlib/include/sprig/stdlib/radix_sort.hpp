// Stable LSD radix sort of uint32 or uint64 keys, optionally carrying uint32 payloads,
// over an optional bit range [begin_bit, end_bit):
//
//   sprig::radix_sort(device, keys);                      // in place
//   sprig::radix_sort(device, keys, values, {0, 24});     // pairs, low 24 bits only
//   sprig::radix_sort(device, sequence, keys, scratch);   // recorded, temporaries kept
//
// Onesweep (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort
// for GPUs", 2022): one histogram pass counts every digit of every pass at once; then each
// 8-bit digit takes a single pass over the keys in which a tile
//   1. ranks its keys per digit, stably (subgroup ballots match equal digits),
//   2. publishes its per-digit counts and looks back over earlier tiles' counts
//      (decoupled look-back, one invocation per digit),
//   3. reorders the tile by digit in shared memory and writes it out, so that runs of
//      equal digits go to consecutive addresses.
// SortMode::CountScanScatter does without the look-back: one kernel counts each tile's
// digits, an exclusive scan of those counts in digit-major order gives every (digit, tile)
// its output position, and the same ranking-and-reordering kernel places the keys. It
// reads the keys once more per pass and never waits on another workgroup; on the H100 it
// measured 1-70% slower than OneSweep at every size from 2^20 to 2^28, so Auto is OneSweep.
#pragma once

#include <stdexcept>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/decoupled_lookback.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig {

// How a digit pass learns where each tile's keys go (see the top of the file); the choice
// never changes the result.
enum class SortMode { Auto, OneSweep, CountScanScatter };

struct SortOptions {
  std::uint32_t begin_bit = 0;
  std::uint32_t end_bit = ~0u;  // the key's width
  SortMode mode = SortMode::Auto;
};

namespace detail {

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
  // word) while ranking, the reordered tile afterwards.
  std::uint32_t scratch_words() const {
    return std::max(max_subgroups * radix / 2, tile.elements() * (key_words + value_words));
  }
  LookBackTraits lookback;
  bool prefixed = false;  // tile offsets come from a scan (CountScanScatter), no look-back
  std::string key() const {
    return std::to_string(tile.invocations) + "x" + std::to_string(tile.items) + "x" + std::to_string(max_subgroups) +
           "v" + std::to_string(value_words) + lookback.key() + (prefixed ? "p" : "");
  }
};

// Beside the scratch: the per-digit tables (3 x 256 words), the subgroup totals (one word
// per invocation) and a few words more.
inline std::uint32_t sort_shared_bytes(const SortShape& s) {
  return (s.scratch_words() + 3 * radix + s.tile.invocations + 16) * 4;
}

// Workgroups of 512 with 20, 16 or 8 items, the first that fits in shared memory, else 256
// invocations with as many items as fit (at most 16), else fewer invocations (on GPUs of
// small workgroups, or of small subgroups, whose per-subgroup digit counts fill shared
// memory). Larger tiles mean fewer look-backs. On the H100 (2^28 uint32 keys, ms): 512 x 20
// took 9.48, 512 x 16 9.97, 512 x 12 11.49, 512 x 8 9.88, 1024 x 8 9.80 and 256 x 16 10.34;
// pairs took 17.2 at 512 x 8 against 18.1 at 256 x 16 (docs/benchmarks.md).
template <RadixKey K>
SortShape sort_shape(const DeviceInfo& device, bool with_values) {
  auto shape_of = [&](std::uint32_t invocations, std::uint32_t items) {
    return SortShape{{invocations, items}, std::max(1u, invocations / std::max(1u, device.min_subgroup_size)),
                     std::uint32_t(sizeof(K) / 4), with_values ? 1u : 0u, lookback_traits(device)};
  };
  auto fits = [&](const SortShape& s) { return sort_shared_bytes(s) <= device.max_shared_memory; };
  const std::uint32_t most = fit_invocations(2 * radix, device);
  if (most == 2 * radix) {
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
Expr<std::uint32_t> digit_of(const Expr<K>& key, const Expr<std::uint32_t>& shift, const Expr<std::uint32_t>& mask) {
  if constexpr (std::same_as<K, std::uint32_t>) return (key >> shift) & mask;
  else return cast<std::uint32_t>(key >> cast<std::uint64_t>(shift)) & mask;
}

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
  void add(const Expr<std::uint32_t>& bin) const { atomic_add(counters_[bin * parts_ + local_index() % parts_], 1u); }
  // After a barrier.
  Expr<std::uint32_t> total(const Expr<std::uint32_t>& bin) const {
    Var<std::uint32_t> sum = 0u;
    for (std::uint32_t q = 0; q < parts_; ++q) sum = sum.load() + Expr<std::uint32_t>(counters_[bin * parts_ + q]);
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
    return kernel(name, [=](ReadBuffer<K> keys, Buffer<std::uint32_t> histograms, Expr<std::uint32_t> count,
                            Expr<std::uint32_t> begin_bit, Expr<std::uint32_t> end_bit,
                            Expr<std::uint32_t> tiles_per_workgroup) {
      SplitDigitCounters local(passes * radix, invocations, parts);
      Expr<std::uint32_t> l = local_index();
      local.zero();
      barrier();
      TileShape shape{invocations, items};
      Expr<std::uint32_t> first_tile = linear_workgroup_id() * tiles_per_workgroup;
      Expr<std::uint32_t> end_tile = min(first_tile + tiles_per_workgroup, tiles_covering(count, shape));
      for_(first_tile, end_tile, [&](Expr<std::uint32_t> tile) {
        // All of the tile's loads go out before the first atomic: they are what hides
        // the memory latency. Indices past the end read the last key and count nothing.
        std::vector<Var<K>> tile_keys;
        tile_keys.reserve(items);
        for (std::uint32_t j = 0; j < items; ++j) {
          Expr<std::uint32_t> i = tile * shape.elements() + l + j * invocations;
          tile_keys.emplace_back(Expr<K>(keys[min(i, count - 1u)]));
        }
        for (std::uint32_t j = 0; j < items; ++j) {
          Expr<std::uint32_t> i = tile * shape.elements() + l + j * invocations;
          if_(i < count, [&] {
            Expr<K> key = tile_keys[j].load();
            for (std::uint32_t p = 0; p < passes; ++p) {
              Expr<std::uint32_t> shift = begin_bit + p * radix_bits;
              if_(shift < end_bit, [&] {
                Expr<std::uint32_t> mask = (1u << min(end_bit - shift, radix_bits)) - 1u;
                local.add(digit_of<K>(key, shift, mask) + p * radix);
              });
            }
          });
        }
      });
      barrier();
      for (std::uint32_t p = 0; p < passes; ++p) {
        for (std::uint32_t first_digit = 0; first_digit < radix; first_digit += invocations) {
          Expr<std::uint32_t> d = l + (first_digit + p * radix);
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
        Expr<std::uint32_t> i = workgroup_id().x() * radix + first_digit + subgroup_id() * subgroup_size() +
                                subgroup_invocation_id();
        Expr<std::uint32_t> c = histograms[i];
        Expr<std::uint32_t> s = lanes.inclusive(c);
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

// Predecessor tiles one look-back round trip inspects per digit: their loads are
// independent, so a window costs about one L2 latency instead of one per tile.
constexpr std::uint32_t sort_lookback_window = 4;

// Adds to `earlier` the counts that tiles [0, tile) hold of one digit, whose word for tile
// t is status[first_word + t * 256]. Walks back a window of tiles at a time, summing
// counts up to the nearest tile that published its inclusive count; a tile that has not
// published yet ends the round, and the next round starts from it.
inline void look_back_digit(const CoherentBuffer<std::uint32_t>& status, const Expr<std::uint32_t>& first_word,
                            const Expr<std::uint32_t>& tile, MemoryOrder order, Var<std::uint32_t>& earlier) {
  Var<std::uint32_t> next = tile;  // tiles [next, tile) are summed
  loop_([&] {
    std::vector<Var<std::uint32_t>> words;
    words.reserve(sort_lookback_window);
    for (std::uint32_t j = 0; j < sort_lookback_window; ++j) {
      // Tiles before the first read as an inclusive count of 0, which ends the walk; the
      // index is chosen by select so that it never leaves the pass's words.
      Expr<bool> real = next.load() > j;
      Expr<std::uint32_t> at = first_word + select(real, next.load() - 1u - j, 0u) * radix;
      words.emplace_back(select(real, atomic_load(status[at], order), Expr<std::uint32_t>(sort_prefix_ready)));
    }
    Var<bool> stopped = false, found = false;
    Var<std::uint32_t> taken = 0u;
    for (std::uint32_t j = 0; j < sort_lookback_window; ++j) {
      Expr<std::uint32_t> w = words[j].load();
      Expr<bool> take = !stopped.load() && w != 0u;
      earlier = earlier.load() + select(take, w & sort_count_mask, 0u);
      taken = taken.load() + select(take, 1u, 0u);
      found = found.load() || (take && w >= sort_prefix_ready);
      stopped = stopped.load() || !take || w >= sort_prefix_ready;
    }
    if_(found.load(), [&] { break_(); });
    next = next.load() - taken.load();
  });
}

// CountScanScatter's count step: counts[digit * tiles + tile] is how many keys of the
// tile have the digit, over the same tiles as the digit pass (tile_shape's invocations: a
// power of two up to 256).
template <RadixKey K>
auto tile_digit_counts_kernel(const TileShape& tile_shape) {
  std::string name = "radix_tile_counts<" + type_name<K>() + ">";
  const std::uint32_t invocations = tile_shape.invocations;
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<K> keys, WriteBuffer<std::uint32_t> counts, Expr<std::uint32_t> count,
                            Expr<std::uint32_t> shift, Expr<std::uint32_t> mask, Expr<std::uint32_t> tiles) {
      SplitDigitCounters local(radix, invocations);
      Expr<std::uint32_t> l = local_index();
      local.zero();
      barrier();
      Expr<std::uint32_t> tile = linear_workgroup_id();
      if_(tile >= tiles, [] { return_(); });
      Expr<std::uint32_t> first = tile * tile_shape.elements();
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
        Expr<std::uint32_t> d = l + first_digit;
        counts[d * tiles + tile] = local.total(d);
      }
    }, workgroup(invocations));
  };
  return cached_kernel<decltype(trace())>(name + std::to_string(invocations) + "x" + std::to_string(tile_shape.items),
                                          trace);
}

// One digit pass (see the top of the file). The pass's status words start at
// status_base: the first counts tiles, 1 + tile * 256 + digit is that tile's look-back
// word for the digit. digit_offsets[pass * 256 + digit] is where the digit's keys start.
// A prefixed pass (CountScanScatter) uses neither: tile_offsets[digit * tiles + tile] is
// where the tile's keys of the digit go.
template <RadixKey K>
auto onesweep_kernel(const SortShape& shape) {
  const bool with_values = shape.value_words != 0;
  std::string name = "radix_onesweep<" + type_name<K>() + (with_values ? ",uint" : "") + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<K> keys_in, WriteBuffer<K> keys_out, ReadBuffer<std::uint32_t> values_in,
                            WriteBuffer<std::uint32_t> values_out, ReadBuffer<std::uint32_t> digit_offsets,
                            CoherentBuffer<std::uint32_t> status, ReadBuffer<std::uint32_t> tile_offsets,
                            Expr<std::uint32_t> count, Expr<std::uint32_t> shift, Expr<std::uint32_t> mask,
                            Expr<std::uint32_t> pass, Expr<std::uint32_t> status_base, Expr<std::uint32_t> tiles) {
      const TileShape& tile_shape = shape.tile;
      const std::uint32_t items = tile_shape.items, tile_elements = tile_shape.elements();
      auto op = plus<std::uint32_t>();
      using Op = decltype(op);
      const std::uint32_t invocations = tile_shape.invocations;
      SubgroupScan<std::uint32_t, Op> lanes(op, invocations);
      SubgroupTotalsScan<std::uint32_t, Op> totals(lanes, invocations);
      auto scratch = shared_array<std::uint32_t>(shape.scratch_words(), "sort_scratch");
      auto digit_count = shared_array<std::uint32_t>(radix, "digit_count");
      auto digit_start = shared_array<std::uint32_t>(radix, "digit_start");   // in the sorted tile
      auto destination = shared_array<std::uint32_t>(radix, "digit_destination");  // minus digit_start
      auto tile_index = shared<std::uint32_t>("tile_index");
      SpinSafeBarrier after_lookback(shape.lookback.counted_barrier);
      after_lookback.reset();
      Expr<std::uint32_t> l = local_index(), subgroup = subgroup_id();

      if_(l == 0u, [&] {
        // A look-back may only wait for tiles that already run: indices come in start order.
        if (shape.prefixed) tile_index = linear_workgroup_id();
        else tile_index = atomic_add(status[status_base], 1u);
      });
      for_(l, std::uint32_t(shape.max_subgroups * radix / 2), invocations, [&](Expr<std::uint32_t> w) { scratch[w] = 0u; });
      barrier();
      Expr<std::uint32_t> tile = tile_index.load();
      if_(tile >= tiles_covering(count, tile_shape), [] { return_(); });
      TileBounds bounds = tile_bounds(tile, count, tile_shape);

      // 1. Rank: for each run of subgroup_size keys, lanes whose digits are equal find
      // each other with 8 ballots; the lowest of them adds the group's size to the
      // subgroup's count of that digit.
      std::vector<Var<K>> keys = load_items(keys_in, bounds, count, tile_shape, Expr<K>(K(0)));
      std::vector<Expr<std::uint32_t>> digit, rank;
      std::vector<Expr<bool>> valid;
      for (std::uint32_t j = 0; j < items; ++j) {
        valid.push_back(striped_index(bounds.first, items, j) < count);
        digit.push_back(digit_of<K>(keys[j].load(), shift, mask));
        Expr<uvec4> peers = subgroup_ballot(valid[j]);
        for (std::uint32_t b = 0; b < radix_bits; ++b) {
          Expr<bool> set = ((digit[j] >> b) & 1u) == 1u;
          Expr<uvec4> with_bit = subgroup_ballot(set);
          peers = peers & select(set, with_bit, ~with_bit);
        }
        Expr<std::uint32_t> before = ballot_exclusive_bit_count(peers);
        Expr<std::uint32_t> word = subgroup * (radix / 2) + (digit[j] >> 1u), half = (digit[j] & 1u) * 16u;
        Expr<std::uint32_t> earlier_runs = (Expr<std::uint32_t>(scratch[word]) >> half) & 0xFFFFu;
        rank.push_back(earlier_runs + before);
        subgroup_barrier(Orders::Shared);  // everyone has read before the counts move on
        if_(valid[j] && before == 0u,
            [&] { atomic_add(scratch[word], ballot_bit_count(peers) << half, MemoryOrder::Relaxed, Scope::Workgroup); });
        subgroup_barrier(Orders::Shared);
      }
      barrier();

      // 2. Per digit, the subgroups' counts become exclusive prefixes over subgroups (two
      // digits per invocation: they share a word) and the tile's count of each digit.
      for (std::uint32_t first_word = 0; first_word < radix / 2; first_word += invocations) {
        Expr<std::uint32_t> pair = l + first_word;
        if_(pair < radix / 2, [&] {
          Var<std::uint32_t> low = 0u, high = 0u;
          for_(0u, num_subgroups(), [&](Expr<std::uint32_t> s) {
            Expr<std::uint32_t> w = scratch[s * (radix / 2) + pair];
            scratch[s * (radix / 2) + pair] = low.load() | (high.load() << 16u);
            low = low.load() + (w & 0xFFFFu);
            high = high.load() + (w >> 16u);
          });
          digit_count[2u * pair] = low.load();
          digit_count[2u * pair + 1u] = high.load();
        });
      }
      barrier();

      // 3. Publish this tile's digit counts, look back for the earlier tiles' counts
      // (the invocation at place p in subgroup order owns digits p, p + invocations, ...,
      // as the scan over digits counts them), and place the tile's digits in sorted order.
      // The status words carry the counts themselves, so relaxed atomics suffice (on the
      // GPU an acquire fence per poll costs a round trip of its own), except where
      // LookBackTraits says otherwise. A prefixed pass reads the tile's position of each
      // digit from the scan instead. All look-backs end before the one spin-safe barrier.
      Expr<std::uint32_t> place = subgroup * subgroup_size() + subgroup_invocation_id();
      std::vector<Expr<std::uint32_t>> owned, mine;
      std::vector<Expr<bool>> owns;
      std::vector<Var<std::uint32_t>> earlier;  // keys of the digit before this tile's (offset included when prefixed)
      earlier.reserve(radix / std::min(invocations, radix));
      for (std::uint32_t first_digit = 0; first_digit < radix; first_digit += invocations) {
        Expr<std::uint32_t> d = place + first_digit;
        Expr<bool> owns_digit = d < radix;  // the invocations past the digits scan zeros
        owned.push_back(d);
        owns.push_back(owns_digit);
        mine.push_back(select(owns_digit, Expr<std::uint32_t>(digit_count[min(d, radix - 1u)]), 0u));
        earlier.emplace_back(0u);
        Var<std::uint32_t>& before = earlier.back();
        if (shape.prefixed) {
          if_(owns_digit, [&] { before = Expr<std::uint32_t>(tile_offsets[d * tiles + tile]); });
        } else {
          if_(owns_digit, [&] {
            Expr<std::uint32_t> my_word = status_base + tile * radix + d + 1u;
            bool ordered = shape.lookback.ordered_words;
            MemoryOrder publish = ordered ? MemoryOrder::Release : MemoryOrder::Relaxed;
            if_(tile == 0u, [&] {
              atomic_store(status[my_word], sort_prefix_ready | mine.back(), publish);
            }).else_([&] {
              atomic_store(status[my_word], sort_aggregate_ready | mine.back(), publish);
              look_back_digit(status, status_base + d + 1u, tile,
                              ordered ? MemoryOrder::Acquire : MemoryOrder::Relaxed, before);
              atomic_store(status[my_word], sort_prefix_ready | (before.load() + mine.back()), publish);
            });
            before = before.load() + Expr<std::uint32_t>(digit_offsets[pass * radix + d]);
          });
        }
      }
      Expr<std::uint32_t> s = lanes.inclusive(mine[0]);
      after_lookback.arrive_and_wait();
      Var<std::uint32_t> carry = 0u;  // keys of the tile in earlier rounds' digits
      for (std::size_t round = 0; round < owned.size(); ++round) {
        Expr<std::uint32_t> inclusive = round == 0 ? s : lanes.inclusive(mine[round]);
        totals.scan(lanes.last(inclusive));
        Expr<std::uint32_t> start = carry.load() + totals.exclusive_prefix() + inclusive - mine[round];
        if_(owns[round], [&] {
          digit_start[owned[round]] = start;
          destination[owned[round]] = earlier[round].load() - start;
        });
        if (round + 1 < owned.size()) {
          carry = carry.load() + totals.workgroup_total();
          barrier();  // the totals are rewritten by the next round
        }
      }
      barrier();

      // 4. Reorder the tile in shared memory.
      std::vector<Expr<std::uint32_t>> position;
      for (std::uint32_t j = 0; j < items; ++j) {
        Expr<std::uint32_t> word = subgroup * (radix / 2) + (digit[j] >> 1u), half = (digit[j] & 1u) * 16u;
        Expr<std::uint32_t> subgroups_before = (Expr<std::uint32_t>(scratch[word]) >> half) & 0xFFFFu;
        position.push_back(Expr<std::uint32_t>(digit_start[digit[j]]) + subgroups_before + rank[j]);
      }
      std::vector<Var<std::uint32_t>> payload;
      payload.reserve(items);
      if (with_values) {
        for (std::uint32_t j = 0; j < items; ++j) payload.emplace_back(0u);
        if_(bounds.full, [&] {
          for (std::uint32_t j = 0; j < items; ++j)
            payload[j] = Expr<std::uint32_t>(values_in[striped_index(bounds.first, items, j)]);
        }).else_([&] {
          for (std::uint32_t j = 0; j < items; ++j)
            if_(valid[j], [&] { payload[j] = Expr<std::uint32_t>(values_in[striped_index(bounds.first, items, j)]); });
        });
      }
      barrier();  // the counts in scratch have been read
      for (std::uint32_t j = 0; j < items; ++j) {
        if_(valid[j], [&] {
          Expr<K> key = keys[j].load();
          if constexpr (std::same_as<K, std::uint32_t>) {
            scratch[position[j]] = key;
          } else {
            scratch[position[j]] = cast<std::uint32_t>(key);
            scratch[position[j] + tile_elements] = cast<std::uint32_t>(key >> 32ull);
          }
          if (with_values) scratch[position[j] + tile_elements * shape.key_words] = payload[j].load();
        });
      }
      barrier();

      // 5. Write out: consecutive invocations take consecutive sorted keys.
      Expr<std::uint32_t> in_tile = min(count - bounds.first, tile_elements);
      for (std::uint32_t j = 0; j < items; ++j) {
        Expr<std::uint32_t> i = l + j * invocations;
        if_(i < in_tile, [&] {
          Expr<K> key = [&] {
            if constexpr (std::same_as<K, std::uint32_t>) return Expr<K>(scratch[i]);
            else return cast<K>(Expr<std::uint32_t>(scratch[i])) | (cast<K>(Expr<std::uint32_t>(scratch[i + tile_elements])) << 32ull);
          }();
          Expr<std::uint32_t> at = Expr<std::uint32_t>(destination[digit_of<K>(key, shift, mask)]) + i;
          keys_out[at] = key;
          if (with_values) values_out[at] = Expr<std::uint32_t>(scratch[i + tile_elements * shape.key_words]);
        });
      }
    }, workgroup(shape.tile.invocations));
  };
  return cached_kernel<decltype(trace())>(name + shape.key(), trace);
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

// A scratch's buffers, each at least the size asked for.
template <RadixKey K>
class SortScratchOf {
 public:
  SortScratchOf(Device& device, SortScratch<K>& scratch) : device_(device), scratch_(scratch) {}
  const DeviceBuffer<K>& keys(std::size_t n) { return reserve(scratch_.keys_, n); }
  const DeviceBuffer<std::uint32_t>& values(std::size_t n) { return reserve(scratch_.values_, n); }
  const DeviceBuffer<std::uint32_t>& histograms(std::size_t n) { return reserve(scratch_.histograms_, n); }
  const DeviceBuffer<std::uint32_t>& status(std::size_t n) { return reserve(scratch_.status_, n); }
  const DeviceBuffer<std::uint32_t>& tile_counts(std::size_t n) { return reserve(scratch_.tile_counts_, n); }
  const DeviceBuffer<std::uint32_t>& tile_offsets(std::size_t n) { return reserve(scratch_.tile_offsets_, n); }

 private:
  template <class T>
  const DeviceBuffer<T>& reserve(DeviceBuffer<T>& buffer, std::size_t size) {
    if (buffer.size() < size) buffer = device_.alloc<T>(size);
    return buffer;
  }
  Device& device_;
  SortScratch<K>& scratch_;
};

inline SortMode resolve_sort_mode(SortMode mode) { return mode == SortMode::Auto ? SortMode::OneSweep : mode; }

template <RadixKey K>
void record_radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys,
                       const DeviceBuffer<std::uint32_t>* values, SortOptions options, SortScratch<K>& scratch_buffers) {
  std::size_t n = keys.size();
  std::uint32_t width = sizeof(K) * 8;
  std::uint32_t begin = options.begin_bit, end = std::min(options.end_bit, width);
  if (values && values->size() < n) throw std::invalid_argument("radix_sort: fewer values than keys");
  if (n >= (std::size_t(1) << 30)) throw std::invalid_argument("radix_sort: at most 2^30 - 1 keys");
  if (n <= 1 || begin >= end) return;
  std::uint32_t passes = (end - begin + radix_bits - 1) / radix_bits;
  SortShape shape = sort_shape<K>(device.info(), values != nullptr);
  std::size_t tiles = shape.tile.tiles_for(n);

  SortScratchOf<K> scratch(device, scratch_buffers);
  shape.prefixed = resolve_sort_mode(options.mode) == SortMode::CountScanScatter;
  // Digit counts of all passes, then their offsets.
  const DeviceBuffer<std::uint32_t>& histograms = scratch.histograms(max_passes<K>() * radix);
  if (!shape.prefixed) {
    record_digit_histogram(device.info(), sequence, keys, n, histograms, begin, end);
    const std::uint32_t scanning = fit_invocations(radix, device.info());
    sequence.run(digit_offsets_kernel(scanning), grid(std::uint64_t(max_passes<K>()) * scanning), histograms);
  }

  std::size_t status_words = shape.prefixed ? 1 : 1 + tiles * radix;
  const DeviceBuffer<std::uint32_t>& status = scratch.status(status_words * passes);
  if (!shape.prefixed) sequence.fill(status, 0, status_words * passes * sizeof(std::uint32_t), 0);
  // CountScanScatter's per-(digit, tile) counts and their exclusive scan, exactly sized
  // views of the scratch (the scan covers its buffer's whole length).
  std::size_t tile_words = shape.prefixed ? radix * tiles : 1;
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
    sequence.run(sweep, tile_grid(tiles, shape.tile), from, to, values_from, values_to, histograms, status,
                 tile_offsets, std::uint32_t(n), shift, mask, p, std::uint32_t(shape.prefixed ? 0 : p * status_words),
                 std::uint32_t(tiles));
  }
  if (passes % 2 == 1) {
    sequence.copy(other_keys, 0, keys, 0, n * sizeof(K));
    if (values) sequence.copy(other_values, 0, *values, 0, n * sizeof(std::uint32_t));
  }
}

}  // namespace detail

// Sorts `keys` in place, stably, by the bits [begin_bit, end_bit) (recorded).
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, SortScratch<K>& scratch,
                SortOptions options = {}) {
  detail::record_radix_sort<K>(device, sequence, keys, nullptr, options, scratch);
}
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, SortOptions options = {}) {
  SortScratch<K> scratch;
  radix_sort(device, sequence, keys, scratch, options);
}
// Sorts `keys` in place and moves values[i] along with keys[i] (recorded).
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, const DeviceBuffer<std::uint32_t>& values,
                SortScratch<K>& scratch, SortOptions options = {}) {
  detail::record_radix_sort<K>(device, sequence, keys, &values, options, scratch);
}
template <detail::RadixKey K>
void radix_sort(Device& device, Sequence& sequence, const DeviceBuffer<K>& keys, const DeviceBuffer<std::uint32_t>& values,
                SortOptions options = {}) {
  SortScratch<K> scratch;
  radix_sort(device, sequence, keys, values, scratch, options);
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
  SortScratch<K> scratch;
  radix_sort(device, keys, scratch, options);
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
  SortScratch<K> scratch;
  radix_sort(device, keys, values, scratch, options);
}

}  // namespace sprig
