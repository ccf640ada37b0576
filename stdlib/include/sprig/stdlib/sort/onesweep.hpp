// The radix sort's digit pass: rank, look back, reorder in shared memory, write out
// (radix_sort.hpp describes the algorithm).
#pragma once

#include "sprig/stdlib/sort/sort_shape.hpp"

namespace sprig::detail {

// Predecessor tiles one look-back round trip inspects per digit: their loads are
// independent, so a window costs about one L2 latency instead of one per tile.
constexpr std::uint32_t sort_lookback_window = 4;

// Adds to `earlier` the counts that tiles [0, tile) hold of one digit, whose word for tile
// t is status[first_word + t * 256]. Walks back a window of tiles at a time, summing
// counts up to the nearest tile that published its inclusive count; a tile that has not
// published yet ends the round, and the next round starts from it.
inline void look_back_digit(const CoherentBuffer<std::uint32_t>& status, const UInt& first_word,
                            const UInt& tile, MemoryOrder order, Var<std::uint32_t>& earlier) {
  Var<std::uint32_t> next = tile;  // tiles [next, tile) are summed
  loop_([&] {
    std::vector<Var<std::uint32_t>> words;
    words.reserve(sort_lookback_window);
    for (std::uint32_t j = 0; j < sort_lookback_window; ++j) {
      // Tiles before the first read as an inclusive count of 0, which ends the walk; the
      // index is chosen by select so that it never leaves the pass's words.
      Bool real = next.load() > j;
      UInt at = first_word + select(real, next.load() - 1u - j, 0u) * radix;
      words.emplace_back(select(real, atomic_load(status[at], order), UInt(sort_prefix_ready)));
    }
    Var<bool> stopped = false, found = false;
    Var<std::uint32_t> taken = 0u;
    for (std::uint32_t j = 0; j < sort_lookback_window; ++j) {
      UInt w = words[j].load();
      Bool take = !stopped.load() && w != 0u;
      earlier = earlier.load() + select(take, w & sort_count_mask, 0u);
      taken = taken.load() + select(take, 1u, 0u);
      found = found.load() || (take && w >= sort_prefix_ready);
      stopped = stopped.load() || !take || w >= sort_prefix_ready;
    }
    if_(found.load(), [&] { break_(); });
    next = next.load() - taken.load();
  });
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
                            UInt count, UInt shift, UInt mask,
                            UInt pass, UInt status_base, UInt tiles) {
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
      UInt l = local_index(), subgroup = subgroup_id();

      if_(l == 0u, [&] {
        // A look-back may only wait for tiles that already run: indices come in start order.
        if (shape.prefixed) tile_index = linear_workgroup_id();
        else tile_index = atomic_add(status[status_base], 1u);
      });
      for_(l, std::uint32_t(shape.max_subgroups * radix / 2), invocations, [&](UInt w) { scratch[w] = 0u; });
      barrier();
      UInt tile = tile_index.load();
      if_(tile >= tiles_covering(count, tile_shape), [] { return_(); });
      TileBounds bounds = tile_bounds(tile, count, tile_shape);

      // 1. Rank: for each run of subgroup_size keys, lanes whose digits are equal find
      // each other with 8 ballots; the lowest of them adds the group's size to the
      // subgroup's count of that digit.
      std::vector<Var<K>> keys = load_items(keys_in, bounds, count, tile_shape, Expr<K>(K(0)));
      std::vector<UInt> digit, rank;
      std::vector<Bool> valid;
      for (std::uint32_t j = 0; j < items; ++j) {
        valid.push_back(striped_index(bounds.first, items, j) < count);
        digit.push_back(digit_of<K>(keys[j].load(), shift, mask));
        UVec4 peers = subgroup_ballot(valid[j]);
        for (std::uint32_t b = 0; b < radix_bits; ++b) {
          Bool set = ((digit[j] >> b) & 1u) == 1u;
          UVec4 with_bit = subgroup_ballot(set);
          peers = peers & select(set, with_bit, ~with_bit);
        }
        UInt before = ballot_exclusive_bit_count(peers);
        UInt word = subgroup * (radix / 2) + (digit[j] >> 1u), half = (digit[j] & 1u) * 16u;
        UInt earlier_runs = (UInt(scratch[word]) >> half) & 0xFFFFu;
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
        UInt pair = l + first_word;
        if_(pair < radix / 2, [&] {
          Var<std::uint32_t> low = 0u, high = 0u;
          for_(0u, num_subgroups(), [&](UInt s) {
            UInt w = scratch[s * (radix / 2) + pair];
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
      UInt place = subgroup * subgroup_size() + subgroup_invocation_id();
      std::vector<UInt> owned, mine;
      std::vector<Bool> owns;
      std::vector<Var<std::uint32_t>> earlier;  // keys of the digit before this tile's (offset included when prefixed)
      earlier.reserve(radix / std::min(invocations, radix));
      for (std::uint32_t first_digit = 0; first_digit < radix; first_digit += invocations) {
        UInt d = place + first_digit;
        Bool owns_digit = d < radix;  // the invocations past the digits scan zeros
        owned.push_back(d);
        owns.push_back(owns_digit);
        mine.push_back(select(owns_digit, UInt(digit_count[min(d, radix - 1u)]), 0u));
        earlier.emplace_back(0u);
        Var<std::uint32_t>& before = earlier.back();
        if (shape.prefixed) {
          if_(owns_digit, [&] { before = UInt(tile_offsets[d * tiles + tile]); });
        } else {
          if_(owns_digit, [&] {
            UInt my_word = status_base + tile * radix + d + 1u;
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
            before = before.load() + UInt(digit_offsets[pass * radix + d]);
          });
        }
      }
      UInt s = lanes.inclusive(mine[0]);
      after_lookback.arrive_and_wait();
      Var<std::uint32_t> carry = 0u;  // keys of the tile in earlier rounds' digits
      for (std::size_t round = 0; round < owned.size(); ++round) {
        UInt inclusive = round == 0 ? s : lanes.inclusive(mine[round]);
        totals.scan(lanes.last(inclusive));
        UInt start = carry.load() + totals.exclusive_prefix() + inclusive - mine[round];
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
      std::vector<UInt> position;
      for (std::uint32_t j = 0; j < items; ++j) {
        UInt word = subgroup * (radix / 2) + (digit[j] >> 1u), half = (digit[j] & 1u) * 16u;
        UInt subgroups_before = (UInt(scratch[word]) >> half) & 0xFFFFu;
        position.push_back(UInt(digit_start[digit[j]]) + subgroups_before + rank[j]);
      }
      std::vector<Var<std::uint32_t>> payload;
      payload.reserve(items);
      if (with_values) {
        for (std::uint32_t j = 0; j < items; ++j) payload.emplace_back(0u);
        if_(bounds.full, [&] {
          for (std::uint32_t j = 0; j < items; ++j)
            payload[j] = UInt(values_in[striped_index(bounds.first, items, j)]);
        }).else_([&] {
          for (std::uint32_t j = 0; j < items; ++j)
            if_(valid[j], [&] { payload[j] = UInt(values_in[striped_index(bounds.first, items, j)]); });
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
      UInt in_tile = min(count - bounds.first, tile_elements);
      for (std::uint32_t j = 0; j < items; ++j) {
        UInt i = l + j * invocations;
        if_(i < in_tile, [&] {
          Expr<K> key = [&] {
            if constexpr (std::same_as<K, std::uint32_t>) return Expr<K>(scratch[i]);
            else return cast<K>(UInt(scratch[i])) | (cast<K>(UInt(scratch[i + tile_elements])) << 32ull);
          }();
          UInt at = UInt(destination[digit_of<K>(key, shift, mask)]) + i;
          keys_out[at] = key;
          if (with_values) values_out[at] = UInt(scratch[i + tile_elements * shape.key_words]);
        });
      }
    }, workgroup(shape.tile.invocations));
  };
  return cached_kernel<decltype(trace())>(name + shape.key(), trace);
}

}  // namespace sprig::detail
