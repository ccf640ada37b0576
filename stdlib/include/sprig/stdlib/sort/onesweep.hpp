// The radix sort's digit pass: rank, publish the tile's counts, reorder the keys in shared
// memory, look back, write the keys out (loading the workgroup's next tile meanwhile, where it
// sorts several), then move the values through the same shared memory (radix_sort.hpp
// describes the algorithm).
#pragma once

#include "sprig/stdlib/sort/sort_shape.hpp"

namespace sprig::detail {

// Predecessor tiles one look-back round trip inspects per digit: their loads are
// independent, so a window costs about one L2 latency instead of one per tile.
constexpr std::uint32_t sort_lookback_window = 4;

// Adds to `earlier` the counts that tiles [0, tile) hold of one digit, whose word for tile
// t is status[first_word + t * 256]. Walks back a window of tiles at a time, summing
// counts up to the nearest tile that published its inclusive count; a tile that has not
// published yet ends the round, and the next round starts from it after `pause`.
inline void look_back_digit(const CoherentBuffer<std::uint32_t>& status, const UInt& first_word,
                            const UInt& tile, MemoryOrder order, const PollPause& pause,
                            Var<std::uint32_t>& earlier) {
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
    if (pause.any()) if_(taken.load() < sort_lookback_window, [&] { pause_before_next_poll(pause, words[0].load()); });
    next = next.load() - taken.load();
  });
}

// Values below 2^16, one per item, packed two to a word: what an invocation holds per item
// across the tile's stages costs half the registers.
class HalfWords {
 public:
  void push_back(const UInt& value) {
    if (size_ % 2 == 0) pairs_.push_back(value);
    else pairs_.back() = pairs_.back() | (value << 16u);
    ++size_;
  }
  UInt operator[](std::uint32_t j) const { return (pairs_[j / 2] >> (16u * (j % 2))) & 0xFFFFu; }

 private:
  std::vector<UInt> pairs_;
  std::uint32_t size_ = 0;
};

// The digits an invocation owns in the scan over digits: the invocation at place p in
// subgroup order owns p, p + invocations, ..., one per round of the scan.
struct OwnedDigits {
  std::vector<UInt> digit;
  std::vector<Bool> owns;   // digit < 256: the invocations past the digits scan zeros
  std::vector<UInt> count;  // the tile's keys of the digit (0 where not owned)
  std::vector<Var<std::uint32_t>> tile_start;  // where the digit starts in the sorted tile
};

// The stages of one digit pass, in the order the kernel runs them; each ends with the
// barrier after which its results in shared memory may be read, except reorder_keys, which
// the look-back's closing barrier ends, and write_keys, which move_values' first barrier
// ends (only the keys' scratch is read there). Construct at the top level of the kernel: it
// declares the workgroup's shared memory and reads its builtins.
template <RadixKey K>
class DigitPassStages {
 public:
  explicit DigitPassStages(const SortShape& shape)
      : shape_(shape),
        lanes_(plus<std::uint32_t>(), shape.tile.invocations),
        totals_(lanes_, shape.tile.invocations),
        scratch_(shared_array<std::uint32_t>(shape.scratch_words(), "sort_scratch")),
        digit_count_(shared_array<std::uint32_t>(radix, "digit_count")),
        digit_start_(shared_array<std::uint32_t>(radix, "digit_start")),
        destination_(shared_array<std::uint32_t>(radix, "digit_destination")),
        tile_index_(shared<std::uint32_t>("tile_index")),
        next_tile_(shared<std::uint32_t>("next_tile_index")),
        after_lookback_([&] {
          SpinSafeBarrier b(shape.lookback.counted_barrier, shape.lookback.pause);
          b.reset();
          return b;
        }()),
        local_(local_index()),
        subgroup_(subgroup_id()) {}
  DigitPassStages(const DigitPassStages&) = delete;  // totals_ refers to lanes_
  DigitPassStages& operator=(const DigitPassStages&) = delete;

  // The workgroup's first tile, and zeroed per-subgroup counts. Tiles are numbered in the
  // order workgroups take them (a look-back may only wait for tiles that already run);
  // workgroups past the last tile end here.
  UInt claim_first_tile(const CoherentBuffer<std::uint32_t>& status, const UInt& status_base, const UInt& count) {
    if_(local_ == 0u, [&] {
      if (shape_.prefixed) tile_index_ = linear_workgroup_id();
      else tile_index_ = atomic_add(status[status_base], 1u);
    });
    zero_counts();
    UInt tile = tile_index_.load();
    if_(tile >= tiles_covering(count, shape_.tile), [] { return_(); });
    return tile;
  }

  // Takes the workgroup's next tile, readable through next_tile() after the next barrier.
  // Its counts are published only once this tile is written out, yet it cannot deadlock:
  // the lowest tile whose counts are missing is either some workgroup's current tile, which
  // publishes without waiting, or a next tile whose workgroup's current tile waits only on
  // lower tiles, whose counts are all published.
  void claim_next_tile(const CoherentBuffer<std::uint32_t>& status, const UInt& status_base) {
    if_(local_ == 0u, [&] { next_tile_ = atomic_add(status[status_base], 1u); });
  }
  UInt next_tile() const { return next_tile_.load(); }

  // Zeroes the per-subgroup counts, then a barrier.
  void zero_counts() {
    for_(local_, std::uint32_t(shape_.max_subgroups * radix / 2), shape_.tile.invocations,
         [&](UInt w) { scratch_[w] = 0u; });
    barrier();
  }

  // Ranks the tile's keys per digit, stably: for each run of subgroup_size keys, lanes
  // whose digits are equal find each other with 8 ballots; the lowest of them adds the
  // group's size to the subgroup's count of that digit (two 16-bit counts a scratch word).
  // `keys` are key j of each invocation (striped over the tile); the result is each key's
  // rank among its subgroup's keys of that digit (earlier runs, then lower lanes; below
  // 2^16: a subgroup holds at most 128 x 20 keys). The digit and whether the key exists
  // (the last tile is partial) are computed again where needed.
  HalfWords rank_keys(const std::vector<Var<K>>& keys, const TileBounds& bounds, const UInt& count, const UInt& shift,
                      const UInt& mask) {
    HalfWords rank;
    for (std::uint32_t j = 0; j < shape_.tile.items; ++j) {
      Bool valid = striped_index(bounds.first, shape_.tile.items, j) < count;
      UInt digit = digit_of<K>(keys[j].load(), shift, mask);
      UVec4 peers = subgroup_ballot(valid);
      for (std::uint32_t b = 0; b < radix_bits; ++b) {
        Bool set = ((digit >> b) & 1u) == 1u;
        UVec4 with_bit = subgroup_ballot(set);
        peers = peers & select(set, with_bit, ~with_bit);
      }
      UInt before = ballot_exclusive_bit_count(peers);
      UInt word = subgroup_ * (radix / 2) + (digit >> 1u), half = (digit & 1u) * 16u;
      UInt earlier_runs = (UInt(scratch_[word]) >> half) & 0xFFFFu;
      rank.push_back(earlier_runs + before);
      subgroup_barrier(Orders::Shared);  // everyone has read before the counts move on
      if_(valid && before == 0u,
          [&] { atomic_add(scratch_[word], ballot_bit_count(peers) << half, MemoryOrder::Relaxed, Scope::Workgroup); });
      subgroup_barrier(Orders::Shared);
    }
    barrier();
    return rank;
  }

  // Per digit, the subgroups' counts become exclusive prefixes over subgroups (two digits
  // per invocation: they share a word), and their sum the tile's count of the digit.
  void count_digits() {
    const std::uint32_t invocations = shape_.tile.invocations;
    for (std::uint32_t first_word = 0; first_word < radix / 2; first_word += invocations) {
      UInt pair = local_ + first_word;
      if_(pair < radix / 2, [&] {
        Var<std::uint32_t> low = 0u, high = 0u;
        for_(0u, num_subgroups(), [&](UInt s) {
          UInt w = scratch_[s * (radix / 2) + pair];
          scratch_[s * (radix / 2) + pair] = low.load() | (high.load() << 16u);
          low = low.load() + (w & 0xFFFFu);
          high = high.load() + (w >> 16u);
        });
        digit_count_[2u * pair] = low.load();
        digit_count_[2u * pair + 1u] = high.load();
      });
    }
    barrier();
  }

  // The digits this invocation owns, with the tile's count of each; a look-back pass
  // publishes those counts at once, so that later tiles can sum past this one while it
  // reorders.
  OwnedDigits own_digits(const CoherentBuffer<std::uint32_t>& status, const UInt& tile, const UInt& status_base) {
    const std::uint32_t invocations = shape_.tile.invocations;
    UInt place = subgroup_ * subgroup_size() + subgroup_invocation_id();
    OwnedDigits owned;
    owned.tile_start.reserve(radix / std::min(invocations, radix));  // the places stay put
    for (std::uint32_t first_digit = 0; first_digit < radix; first_digit += invocations) {
      UInt d = place + first_digit;
      Bool owns_digit = d < radix;
      owned.digit.push_back(d);
      owned.owns.push_back(owns_digit);
      owned.count.push_back(select(owns_digit, UInt(digit_count_[min(d, radix - 1u)]), 0u));
      owned.tile_start.emplace_back(0u);
      if (!shape_.prefixed) if_(owns_digit, [&] { publish_count(status, status_base, tile, d, owned.count.back()); });
    }
    return owned;
  }

  // Where each digit starts in the sorted tile: a scan over digits, in rounds of one digit
  // per invocation.
  void place_digits(OwnedDigits& owned) {
    Var<std::uint32_t> carry = 0u;  // keys of the tile in earlier rounds' digits
    for (std::size_t round = 0; round < owned.digit.size(); ++round) {
      UInt inclusive = lanes_.inclusive(owned.count[round]);
      totals_.scan(lanes_.last(inclusive));
      owned.tile_start[round] = carry.load() + totals_.exclusive_prefix() + inclusive - owned.count[round];
      if_(owned.owns[round], [&] { digit_start_[owned.digit[round]] = owned.tile_start[round].load(); });
      if (round + 1 < owned.digit.size()) {
        carry = carry.load() + totals_.workgroup_total();
        barrier();  // the totals are rewritten by the next round
      }
    }
    barrier();
  }

  // Reorders the tile's keys by digit in shared memory and returns each key's place in the
  // sorted tile (below 2^16: tiles hold at most 16 x 1024 keys). Before the look-back: a
  // tile waiting on its predecessors then holds its keys in shared memory, not in registers.
  HalfWords reorder_keys(const std::vector<Var<K>>& keys, const HalfWords& rank, const TileBounds& bounds,
                         const UInt& count, const UInt& shift, const UInt& mask) {
    const std::uint32_t items = shape_.tile.items, tile_elements = shape_.tile.elements();
    HalfWords position;
    for (std::uint32_t j = 0; j < items; ++j) {
      UInt digit = digit_of<K>(keys[j].load(), shift, mask);
      UInt word = subgroup_ * (radix / 2) + (digit >> 1u), half = (digit & 1u) * 16u;
      UInt subgroups_before = (UInt(scratch_[word]) >> half) & 0xFFFFu;
      position.push_back(UInt(digit_start_[digit]) + subgroups_before + rank[j]);
    }
    barrier();  // the counts in scratch have been read
    for (std::uint32_t j = 0; j < items; ++j) {
      if_(striped_index(bounds.first, items, j) < count, [&] {
        Expr<K> key = keys[j].load();
        if constexpr (std::same_as<K, std::uint32_t>) {
          scratch_[position[j]] = key;
        } else {
          scratch_[position[j]] = cast<std::uint32_t>(key);
          scratch_[position[j] + tile_elements] = cast<std::uint32_t>(key >> 32ull);
        }
      });
    }
    return position;
  }

  // Where the tile's keys of each owned digit go in the output, minus where the digit
  // starts in the sorted tile. A look-back pass sums the earlier tiles' counts (decoupled
  // look-back); a prefixed pass reads the position the scan over all tiles' counts gave.
  // All look-backs end before the one spin-safe barrier, which also ends the reordering;
  // `before_barrier` runs just before it. tiles_before: the tiles this workgroup sorted
  // before this one (the barrier's use number).
  template <class BeforeBarrier>
  void find_destinations(const OwnedDigits& owned, const CoherentBuffer<std::uint32_t>& status,
                         const ReadBuffer<std::uint32_t>& digit_offsets, const ReadBuffer<std::uint32_t>& tile_offsets,
                         const UInt& tile, const UInt& pass, const UInt& status_base, const UInt& tiles,
                         const UInt& tiles_before, BeforeBarrier&& before_barrier) {
    for (std::size_t round = 0; round < owned.digit.size(); ++round) {
      const UInt& d = owned.digit[round];
      if_(owned.owns[round], [&] {
        Var<std::uint32_t> output_start = 0u;
        if (shape_.prefixed) {
          output_start = UInt(tile_offsets[d * tiles + tile]);
        } else {
          look_back(status, status_base, tile, d, owned.count[round], output_start);
          output_start = output_start.load() + UInt(digit_offsets[pass * radix + d]);
        }
        destination_[d] = output_start.load() - owned.tile_start[round].load();
      });
    }
    before_barrier();
    after_lookback_.arrive_and_wait(tiles_before);
  }

  // Writes the sorted keys out: consecutive invocations take consecutive sorted keys, so
  // runs of equal digits go to consecutive addresses. Returns where each of this
  // invocation's sorted places went in the output (its values go there too).
  std::vector<Var<std::uint32_t>> write_keys(const WriteBuffer<K>& keys_out, const TileBounds& bounds, const UInt& count,
                                             const UInt& shift, const UInt& mask) {
    const std::uint32_t tile_elements = shape_.tile.elements();
    UInt in_tile = min(count - bounds.first, tile_elements);
    std::vector<Var<std::uint32_t>> output_place;
    output_place.reserve(shape_.tile.items);  // a Var copy would declare a new device variable
    for (std::uint32_t j = 0; j < shape_.tile.items; ++j) {
      output_place.emplace_back(0u);
      UInt i = local_ + j * shape_.tile.invocations;
      if_(i < in_tile, [&] {
        Expr<K> key = [&] {
          if constexpr (std::same_as<K, std::uint32_t>) return Expr<K>(scratch_[i]);
          else return cast<K>(UInt(scratch_[i])) | (cast<K>(UInt(scratch_[i + tile_elements])) << 32ull);
        }();
        output_place[j] = UInt(destination_[digit_of<K>(key, shift, mask)]) + i;
        keys_out[output_place[j].load()] = key;
      });
    }
    return output_place;
  }

  // Moves the values as the keys moved, through the same shared memory once the keys have
  // left it: the tile needs room for its keys only, so pairs sort in tiles as large as
  // keys alone.
  void move_values(const ReadBuffer<std::uint32_t>& values_in, const WriteBuffer<std::uint32_t>& values_out,
                   const HalfWords& position, const std::vector<Var<std::uint32_t>>& output_place,
                   const TileBounds& bounds, const UInt& count) {
    const std::uint32_t items = shape_.tile.items;
    barrier();  // every key has been read out of scratch
    for (std::uint32_t j = 0; j < items; ++j) {
      UInt from = striped_index(bounds.first, items, j);
      if_(from < count, [&] { scratch_[position[j]] = UInt(values_in[from]); });
    }
    barrier();
    UInt in_tile = min(count - bounds.first, shape_.tile.elements());
    for (std::uint32_t j = 0; j < items; ++j) {
      UInt i = local_ + j * shape_.tile.invocations;
      if_(i < in_tile, [&] { values_out[output_place[j].load()] = UInt(scratch_[i]); });
    }
  }

 private:
  using Plus = decltype(plus<std::uint32_t>());

  // The look-back word of digit d for this tile: 1 + tile * 256 + d past status_base.
  // The status words carry the counts themselves, so relaxed atomics suffice (on the GPU
  // an acquire fence per poll costs a round trip of its own), except where LookBackTraits
  // says otherwise.
  UInt status_word(const UInt& status_base, const UInt& tile, const UInt& d) const {
    return status_base + tile * radix + d + 1u;
  }
  MemoryOrder publish_order() const {
    return shape_.lookback.ordered_words ? MemoryOrder::Release : MemoryOrder::Relaxed;
  }

  // Publishes the tile's count of digit d: the first tile's is already inclusive.
  void publish_count(const CoherentBuffer<std::uint32_t>& status, const UInt& status_base, const UInt& tile,
                     const UInt& d, const UInt& count) {
    UInt state = select(tile == 0u, UInt(sort_prefix_ready), UInt(sort_aggregate_ready));
    atomic_store(status[status_word(status_base, tile, d)], state | count, publish_order());
  }

  // Adds to `earlier` the counts of digit d in tiles [0, tile), then publishes this tile's
  // inclusive count.
  void look_back(const CoherentBuffer<std::uint32_t>& status, const UInt& status_base, const UInt& tile, const UInt& d,
                 const UInt& count, Var<std::uint32_t>& earlier) {
    if_(tile != 0u, [&] {
      MemoryOrder poll = shape_.lookback.ordered_words ? MemoryOrder::Acquire : MemoryOrder::Relaxed;
      look_back_digit(status, status_base + d + 1u, tile, poll, shape_.lookback.pause, earlier);
      atomic_store(status[status_word(status_base, tile, d)], sort_prefix_ready | (earlier.load() + count),
                   publish_order());
    });
  }

  SortShape shape_;
  SubgroupScan<std::uint32_t, Plus> lanes_;
  SubgroupTotalsScan<std::uint32_t, Plus> totals_;
  SharedArray<std::uint32_t> scratch_;      // per-subgroup digit counts while ranking, the sorted tile afterwards
  SharedArray<std::uint32_t> digit_count_;  // the tile's keys of each digit
  SharedArray<std::uint32_t> digit_start_;  // where each digit starts in the sorted tile
  SharedArray<std::uint32_t> destination_;  // where each digit's keys go in the output, minus digit_start
  Place<std::uint32_t, Access::ReadWrite> tile_index_, next_tile_;
  SpinSafeBarrier after_lookback_;
  UInt local_, subgroup_;
};

// One digit pass (see the top of the file). The pass's status words start at
// status_base: the first counts tiles, 1 + tile * 256 + digit is that tile's look-back
// word for the digit. digit_offsets[pass * 256 + digit] is where the digit's keys start.
// A prefixed pass (CountScanScatter) uses neither: tile_offsets[digit * tiles + tile] is
// where the tile's keys of the digit go. A look-back pass sorts up to
// shape.tiles_per_workgroup tiles in each workgroup, loading the next tile's keys while the
// current one writes out, so that the SM is not idle while the loads arrive.
template <RadixKey K>
auto onesweep_kernel(const SortShape& shape) {
  const bool with_values = shape.value_words != 0;
  const std::uint32_t tiles_per_workgroup = shape.prefixed ? 1 : shape.tiles_per_workgroup;
  std::string name = "radix_onesweep<" + type_name<K>() + (with_values ? ",uint" : "") + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<K> keys_in, WriteBuffer<K> keys_out, ReadBuffer<std::uint32_t> values_in,
                            WriteBuffer<std::uint32_t> values_out, ReadBuffer<std::uint32_t> digit_offsets,
                            CoherentBuffer<std::uint32_t> status, ReadBuffer<std::uint32_t> tile_offsets,
                            UInt count, UInt shift, UInt mask,
                            UInt pass, UInt status_base, UInt tiles) {
      DigitPassStages<K> stages(shape);
      const bool several = tiles_per_workgroup > 1;
      Var<std::uint32_t> tile = stages.claim_first_tile(status, status_base, count);
      std::vector<Var<K>> keys = load_items(keys_in, tile_bounds(tile.load(), count, shape.tile), count, shape.tile,
                                            Expr<K>(K(0)));
      auto sort_tile = [&](const UInt& round) {
        TileBounds bounds = tile_bounds(tile.load(), count, shape.tile);
        HalfWords rank = stages.rank_keys(keys, bounds, count, shift, mask);
        stages.count_digits();
        OwnedDigits owned = stages.own_digits(status, tile.load(), status_base);
        stages.place_digits(owned);
        HalfWords position = stages.reorder_keys(keys, rank, bounds, count, shift, mask);
        Bool more = round + 1u < tiles_per_workgroup;
        stages.find_destinations(owned, status, digit_offsets, tile_offsets, tile.load(), pass, status_base, tiles,
                                 round, [&] {
          if (several) if_(more, [&] { stages.claim_next_tile(status, status_base); });
        });
        // The next tile's keys load while this one writes out.
        Var<std::uint32_t> next = tiles;  // none: this workgroup's last tile
        if (several) {
          if_(more, [&] { next = stages.next_tile(); });
          if_(next.load() < tiles, [&] {
            load_items_into(keys, keys_in, tile_bounds(next.load(), count, shape.tile), count, shape.tile,
                            Expr<K>(K(0)));
          });
        }
        std::vector<Var<std::uint32_t>> output_place = stages.write_keys(keys_out, bounds, count, shift, mask);
        if (with_values) stages.move_values(values_in, values_out, position, output_place, bounds, count);
        if (several) {
          if_(next.load() >= tiles, [] { break_(); });
          tile = next.load();
          barrier();  // the tile has been read out of scratch before the next one's counts zero it
          stages.zero_counts();
        }
      };
      if (several) for_(0u, tiles_per_workgroup, sort_tile);
      else sort_tile(UInt(0u));
    }, workgroup(shape.tile.invocations));
  };
  return cached_kernel<decltype(trace())>(name + shape.key(), trace);
}

}  // namespace sprig::detail
