// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016): each tile publishes its own aggregate as soon as it has
// it, then finds its exclusive prefix by walking back over its predecessors' published
// states — summing aggregates until it meets a tile that already published its inclusive
// prefix — and publishes its own inclusive prefix.
//
// Status words live in a CoherentBuffer<uint64_t>: word 0 is the tile counter, word 1 + t
// is tile t's state in the high half. Values of 4-byte scalar types are packed into the
// low half, so one relaxed atomic load gives state and value together; other types keep
// their aggregate and inclusive prefix in a separate CoherentBuffer<T> (2 slots per tile),
// published before the state with release order and read after it with acquire order.
//
// Vulkan promises no forward progress between workgroups: a tile may only wait for
// tiles that are certain to be running. Tiles therefore take their index from the
// counter (acquire_tile) when they start, so a tile only ever waits for tiles whose
// workgroups started before it — never for one that might not be scheduled yet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sprig/stdlib/poll_pause.hpp"
#include "sprig/stdlib/spin_safe_barrier.hpp"
#include "sprig/stdlib/subgroup_scan.hpp"

namespace sprig::detail {

// What a device needs of a look-back kernel beyond the algorithm; both are driver quirks
// (driver_quirks.hpp), keyed into the kernels' cache names.
struct LookBackTraits {
  bool counted_barrier = false;  // see spin_safe_barrier.hpp
  // Acquire/release on status words even where the word carries its value. Relaxed
  // look-backs go wrong on lavapipe (Mesa 22.3): the uint32 scan test failed 14 of 40
  // runs, and radix sort wrote out of bounds in 20 of 20 runs of its tests beside another
  // compiling process; with acquire/release, 0 of 40 and 0 of 20. Its fences cost little.
  // Those failures fit lavapipe's loop cap (poll_pause.hpp) better than an ordering fault:
  // relaxed polls come back sooner and spent the cap faster. Since look-backs pause between
  // polls there, relaxed words passed 40 of 40 scan runs and 10 of 10 runs of the sort tests
  // beside another process. The fences stay: each makes a poll slower, a margin on the cap.
  bool ordered_words = false;
  PollPause pause;  // between polls of a window with a pending tile (poll_pause.hpp)
  std::string key() const {
    return std::string(counted_barrier ? "/counted" : "") + (ordered_words ? "/ordered" : "") + pause.key();
  }
};

inline LookBackTraits lookback_traits(const DeviceInfo& device) {
  return {barrier_needs_arrival_counter(device), device.quirks.has(Quirk::RelaxedLookBackUnreliable),
          poll_pause(device)};
}

enum TileState : std::uint64_t { Pending = 0, AggregateReady = 1, PrefixReady = 2 };

// Status words for `tiles` tiles (the counter included).
inline std::size_t tile_status_words(std::size_t tiles) { return tiles + 1; }

template <DeviceValue T>
constexpr bool packs_into_status = ScalarValue<T> && sizeof(T) == 4;

// Slots of T the value buffer needs (one dummy slot when values are packed).
template <DeviceValue T>
std::size_t tile_value_slots(std::size_t tiles) {
  return packs_into_status<T> ? 1 : 2 * tiles;
}

// Takes the next tile index from the counter in status word 0. Call in uniform control
// flow of the whole workgroup; every invocation gets the same index.
inline UInt acquire_tile(const CoherentBuffer<std::uint64_t>& status) {
  auto index = shared<std::uint32_t>("tile_index");
  if_(local_index() == 0u, [&] { index = cast<std::uint32_t>(atomic_add(status[0], 1ull)); });
  barrier();
  return index.load();
}

template <DeviceValue T, AssociativeOperator Op>
class DecoupledLookBack {
 public:
  // `values` is needed unless T packs into the status words.
  DecoupledLookBack(const SubgroupScan<T, Op>& lanes, const LookBackTraits& traits,
                    CoherentBuffer<std::uint64_t> status, std::optional<CoherentBuffer<T>> values = {})
      : lanes_(lanes), ordered_words_(traits.ordered_words), pause_(traits.pause), status_(status), values_(values) {
    if (!packed && !values_) throw TraceError("internal: the look-back of this type needs a value buffer", SourceLoc{});
  }

  // Run by all lanes of one subgroup of tile `tile` once the tile's aggregate is known.
  // Publishes the aggregate, looks back, publishes the inclusive prefix and returns the
  // tile's exclusive prefix (in every lane).
  Expr<T> exclusive_prefix(const UInt& tile, const Expr<T>& aggregate) const {
    const Op& op = lanes_.op();
    UInt lane = lanes_.lane(), width = lanes_.size();
    Var<T> prefix = lanes_.identity();
    if_(tile == 0u, [&] {
      if_(lane == 0u, [&] { publish(tile, PrefixReady, aggregate); });
    }).else_([&] {
      if_(lane == 0u, [&] { publish(tile, AggregateReady, aggregate); });
      // Lane k inspects tile window_end - 1 - k; lanes past the first tile see a virtual
      // tile whose inclusive prefix is the identity, which ends the walk.
      Var<std::uint32_t> window_end = tile;
      Var<std::uint64_t> word;
      loop_([&] {
        Bool real = window_end.load() > lane;
        UInt predecessor = window_end.load() - 1u - lane;
        word = ULong(std::uint64_t(PrefixReady) << 32) | identity_bits();
        // Lanes past the first tile read tile 0's word and ignore it: no divergent branch
        // before the subgroup operations (see load_items in scan_tile.hpp).
        UInt readable = select(real, predecessor, 0u);
        ULong virtual_word = word.load();
        loop_([&] {
          ULong seen = atomic_load(status_[readable + 1u], value_order(MemoryOrder::Acquire));
          word = select(real, seen, virtual_word);
          if_(subgroup_all(state_of(word) != std::uint64_t(Pending)), [&] { break_(); });
          pause_before_next_poll(pause_, cast<std::uint32_t>(word.load()));
        });
        Bool has_prefix = state_of(word) == std::uint64_t(PrefixReady);
        UVec4 prefixes = subgroup_ballot(has_prefix);
        Bool found = ballot_bit_count(prefixes) > 0u;
        // Lanes up to the nearest tile with a prefix contribute; farther ones are covered by it.
        UInt last_needed = select(found, ballot_find_lsb(prefixes), width - 1u);
        Var<T> value = lanes_.identity();
        Bool contributes = real && lane <= last_needed;
        if constexpr (packed) {
          value = select(contributes, value_of(word.load(), readable, has_prefix), lanes_.identity());
        } else {
          if_(contributes, [&] { value = value_of(word.load(), predecessor, has_prefix); });
        }
        prefix = op(lanes_.fold_descending(value.load()), prefix.load());
        if_(found, [&] { break_(); });
        window_end = window_end.load() - width;
      });
      if_(lane == 0u, [&] { publish(tile, PrefixReady, op(prefix.load(), aggregate)); });
    });
    return prefix.load();
  }

 private:
  static constexpr bool packed = packs_into_status<T>;

  ULong identity_bits() const {
    if constexpr (packed) return cast<std::uint64_t>(bitcast<std::uint32_t>(lanes_.identity()));
    else return ULong(std::uint64_t(0));
  }
  // Packed words carry their values, so nothing else is published through them and
  // relaxed atomics suffice; on the GPU an acquire or release costs a fence per access.
  MemoryOrder value_order(MemoryOrder ordered) const {
    return packed && !ordered_words_ ? MemoryOrder::Relaxed : ordered;
  }
  static ULong state_of(const ULong& word) { return word >> 32ull; }

  Expr<T> value_of(const ULong& word, const UInt& predecessor,
                   const Bool& has_prefix) const {
    if constexpr (packed) {
      return bitcast<T>(cast<std::uint32_t>(word));
    } else {
      return (*values_)[predecessor * 2u + select(has_prefix, 1u, 0u)];
    }
  }

  void publish(const UInt& tile, TileState state, const Expr<T>& value) const {
    ULong word = ULong(std::uint64_t(state) << 32);
    if constexpr (packed) {
      word = word | cast<std::uint64_t>(bitcast<std::uint32_t>(value));
    } else {
      (*values_)[tile * 2u + (state == PrefixReady ? 1u : 0u)] = value;
    }
    atomic_store(status_[tile + 1u], word, value_order(MemoryOrder::Release));
  }

  const SubgroupScan<T, Op>& lanes_;
  bool ordered_words_;
  PollPause pause_;
  CoherentBuffer<std::uint64_t> status_;
  std::optional<CoherentBuffer<T>> values_;
};

}  // namespace sprig::detail
