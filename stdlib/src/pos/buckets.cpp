#include "sprig/stdlib/pos/buckets.hpp"

#include <bit>
#include <memory>
#include <stdexcept>
#include <string>

#include "sprig/stdlib/tiling.hpp"
#include "sprig/stdlib/workgroup_scan.hpp"

namespace sprig::pos {

std::uint32_t bucket_key_bits(int k) { return std::uint32_t(std::bit_width(num_buckets(k))); }
std::uint32_t hole_key(int k) { return (1u << bucket_key_bits(k)) - 1u; }

namespace detail {

namespace {

// Cache keys of kernels that read ys: K matters where its y takes two words.
std::string y_key(int k) { return wide_y(k) ? "/wide" : ""; }

// The bucket of the entry at position p, or `hole` where there is none: Abundance's tables
// 2..7 hold pair b's matches at b * slots_per_pair + i for i < pair_sizes[b] (a hole's y is
// never read: a table's transient ys hold nothing there), and a y of all ones is no entry.
UInt bucket_at(int k, const ReadBuffer<std::uint32_t>& ys, const ReadBuffer<std::uint32_t>& pair_sizes, const UInt& p,
               const UInt& slots_per_pair, const UInt& hole) {
  Var<std::uint32_t> present = 1u;
  if_(slots_per_pair != 0u, [&] { if_(p % slots_per_pair >= pair_sizes[p / slots_per_pair], [&] { present = 0u; }); });
  Var<std::uint32_t> key = hole;
  if_(present != 0u, [&] { key = min(bucket_of(load_y(ys, p, k)), hole); });
  return key.load();
}

}  // namespace

const BucketKeysKernel& bucket_keys_kernel(int k, std::uint32_t invocations) {
  std::string name = "pos_bucket_keys";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys, ReadBuffer<std::uint32_t> pair_sizes, WriteBuffer<std::uint32_t> keys,
            WriteBuffer<std::uint32_t> values, UInt count, UInt slots_per_pair, UInt hole) {
          UInt p = global_id().x();
          if_(p < count, [&] {
            keys[p] = bucket_at(k, ys, pair_sizes, p, slots_per_pair, hole);
            values[p] = p;
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketKeysKernel>(name + "/" + std::to_string(invocations) + y_key(k), trace);
}

const BucketRunsKernel& bucket_runs_kernel(std::uint32_t invocations) {
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
              if_(j == 0u, [&] { starts[key] = j; }).else_([&] { if_(keys[j - 1u] != key, [&] { starts[key] = j; }); });
              if_(j + 1u == count, [&] { ends[key] = j + 1u; }).else_([&] {
                if_(keys[j + 1u] != key, [&] { ends[key] = j + 1u; });
              });
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketRunsKernel>(name + "/" + std::to_string(invocations), trace);
}

const BucketSlotsKernel& bucket_slots_kernel(std::uint32_t invocations) {
  std::string name = "pos_bucket_slots";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keys, ReadBuffer<std::uint32_t> values, ReadBuffer<std::uint32_t> ys,
            ReadBuffer<std::uint32_t> starts, ReadBuffer<std::uint32_t> ends, WriteBuffer<std::uint32_t> slots,
            WriteBuffer<std::uint32_t> sizes, UInt count, UInt hole, UInt capacity) {
          UInt j = global_id().x();
          if_(j < count, [&] {
            UInt key = keys[j];
            if_(key != hole, [&] {
              UInt rank = j - starts[key];
              if_(rank < capacity, [&] {
                UInt position = values[j];
                slots[slot_position_word(Mode::Subspace, key, rank)] = position;
                // Two ranks share the word of their r values: the even one writes both, the
                // next entry of the run being the next rank.
                if_((rank & 1u) == 0u, [&] {
                  Var<std::uint32_t> word = ys[position] - key * param_bc;
                  if_(j + 1u < ends[key] && rank + 1u < capacity,
                      [&] { word = word | ((ys[values[j + 1u]] - key * param_bc) << 16u); });
                  slots[slot_r_word(Mode::Subspace, key, rank)] = word.load();
                });
              });
              if_(rank == 0u, [&] { sizes[key] = min(ends[key] - j, capacity); });
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketSlotsKernel>(name + "/" + std::to_string(invocations), trace);
}

const BucketScatterKernel& bucket_scatter_kernel(int k, std::uint32_t capacity, std::uint32_t invocations) {
  std::string name = "pos_bucket_scatter";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys, ReadBuffer<std::uint32_t> pair_sizes, Buffer<std::uint32_t> arrivals,
            WriteBuffer<std::uint32_t> slots, UInt count, UInt slots_per_pair, UInt hole) {
          const std::uint32_t staged_limit = staged_positions;
          UInt p = global_id().x();
          if_(p < count, [&] {
            UInt key = bucket_at(k, ys, pair_sizes, p, slots_per_pair, hole);
            if_(key != hole, [&] {
              UInt arrival = atomic_add(arrivals[key], 1u);
              if_(arrival < staged_limit, [&] { slots[key * staged_limit + arrival] = p; });
            });
          });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketScatterKernel>(
      name + "/" + std::to_string(capacity) + "/" + std::to_string(invocations) + y_key(k), trace);
}

const BucketOrderKernel& bucket_order_kernel(int k, std::uint32_t capacity, std::uint32_t invocations,
                                             SlotLinks slot_links, SlotPositions where) {
  const char* suffix = slot_links == SlotLinks::Positions ? "_positions"
                       : slot_links == SlotLinks::FromLinks ? "_links"
                                                            : "";
  const bool apart = where == SlotPositions::Apart;
  if (apart && slot_links != SlotLinks::None)
    throw std::invalid_argument("pos bucketing: slot links are for positions kept in the slots");
  std::string name = std::string("pos_bucket_order") + suffix + (apart ? "_apart" : "");
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> ys, ReadBuffer<std::uint32_t> pair_sizes, ReadBuffer<std::uint32_t> arrivals,
            Buffer<std::uint32_t> slots, WriteBuffer<std::uint32_t> sizes, ReadBuffer<std::uint32_t> links,
            WriteBuffer<std::uint32_t> by_slot, ReadBuffer<std::uint32_t> staging, Buffer<std::uint32_t> positions,
            UInt count, UInt slots_per_pair, UInt hole, UInt buckets, UInt bin_shift) {
          const std::uint32_t staged_limit = staged_positions;
          auto staged = shared_array<std::uint32_t>(staged_limit, "staged_positions");
          // Each rank's r, until the r words are written whole after the ranking.
          auto r_by_rank = shared_array<std::uint32_t>(capacity, "r_by_rank");
          auto place_in_bin = shared_array<std::uint32_t>(staged_limit, "place_in_bin");
          auto binned = shared_array<std::uint32_t>(staged_limit, "binned_positions");
          auto bin_sizes = shared_array<std::uint32_t>(invocations, "bin_sizes");
          auto bin_starts = shared_array<std::uint32_t>(invocations, "bin_starts");
          using Sum = decltype(plus<std::uint32_t>());
          sprig::detail::SubgroupScan<std::uint32_t, Sum> lanes(plus<std::uint32_t>(), invocations);
          sprig::detail::SubgroupTotalsScan<std::uint32_t, Sum> totals(lanes, invocations);
          UInt b = sprig::detail::linear_workgroup_id();
          if_(b >= buckets, [] { return_(); });  // uniform: the whole workgroup leaves
          UInt t = local_index();
          UInt arrived = arrivals[b];
          UInt base = b * staged_limit;
          auto place = [&](const UInt& rank, const UInt& position) {
            if (apart)
              store_packed(positions, bucket_position_layout(k), b * capacity + rank, wide(position));
            else
              slots[slot_position_word(Mode::Abundance, b, rank)] = position;
            // r = y - b * 15113 needs y's low word only (the difference is below 2^32).
            r_by_rank[rank] = ys[position * y_words(k)] - b * param_bc;
            if (slot_links == SlotLinks::Positions) by_slot[b * capacity + rank] = position;
            if (slot_links == SlotLinks::FromLinks) by_slot[b * capacity + rank] = links[position].load();
          };
          UInt ordered = subgroup_id() * subgroup_size() + subgroup_invocation_id();
          for_(t, UInt(capacity), invocations, [&](UInt i) { r_by_rank[i] = 0u; });  // ranks past the size
          if (apart) zero_shared_words(positions, bucket_position_layout(k), b, t, invocations);
          barrier();
          if_(arrived <= staged_limit, [&] {
            // Every entry arrived: its rank is the number of earlier positions. A counting
            // sort by position >> bin_shift (one bin per invocation) groups them, and an
            // entry compares itself only with its bin's others (about one: positions are
            // spread over the table), not with all ~236. The staged positions are all read
            // before the slots they share memory with are rewritten.
            bin_sizes[t] = 0u;
            barrier();
            for_(t, arrived, invocations, [&](UInt i) {
              UInt position = apart ? staging[base + i].load() : slots[base + i].load();
              staged[i] = position;
              place_in_bin[i] =
                  atomic_add(bin_sizes[position >> bin_shift], 1u, MemoryOrder::Relaxed, Scope::Workgroup);
            });
            barrier();
            UInt size = bin_sizes[ordered];
            UInt inclusive = lanes.inclusive(size);
            UInt exclusive = lanes.exclusive(size, inclusive);
            totals.scan(lanes.last(inclusive));
            bin_starts[ordered] = totals.exclusive_prefix() + exclusive;
            barrier();
            for_(t, arrived, invocations, [&](UInt i) {
              UInt position = staged[i];
              binned[bin_starts[position >> bin_shift] + place_in_bin[i]] = position;
            });
            barrier();
            for_(t, arrived, invocations, [&](UInt i) {
              UInt position = staged[i];
              UInt bin = position >> bin_shift;
              UInt first = bin_starts[bin];
              Var<std::uint32_t> rank = first;
              for_(first, first + bin_sizes[bin], [&](UInt j) { rank = rank + select(binned[j] < position, 1u, 0u); });
              if_(rank < capacity, [&] { place(rank.load(), position); });
            });
          }).else_([&] {
            // More arrived than the staging holds: which were staged was a race. Walk the
            // table in position order and keep the bucket's first `capacity` entries.
            Var<std::uint32_t> found = 0u;
            for_(0u, count, invocations, [&](UInt chunk) {
              UInt p = chunk + ordered;
              Var<std::uint32_t> mine = 0u;
              if_(p < count, [&] { mine = select(bucket_at(k, ys, pair_sizes, p, slots_per_pair, hole) == b, 1u, 0u); });
              UInt inclusive = lanes.inclusive(mine.load());
              UInt exclusive = lanes.exclusive(mine.load(), inclusive);
              totals.scan(lanes.last(inclusive));
              UInt rank = found + totals.exclusive_prefix() + exclusive;
              if_(mine != 0u && rank < capacity, [&] { place(rank, p); });
              found = found + totals.workgroup_total();
              barrier();  // the totals are rewritten by the next chunk
              if_(found >= capacity, [] { break_(); });
            });
          });
          barrier();  // every rank's r is in r_by_rank
          for_(t, UInt(capacity / 2), invocations, [&](UInt i) {
            slots[slot_r_word(Mode::Abundance, b, i * 2u, where)] = r_by_rank[i * 2u] | (r_by_rank[i * 2u + 1u] << 16u);
          });
          if_(t == 0u, [&] { sizes[b] = min(arrived, UInt(capacity)); });
        },
        workgroup(invocations));
  };
  return sprig::detail::cached_kernel<BucketOrderKernel>(
      name + "/" + std::to_string(capacity) + "/" + std::to_string(invocations) + (apart ? "/k" + std::to_string(k) : "") +
          y_key(k),
      trace);
}

}  // namespace detail

Buckets transient_buckets(Sequence& sequence, int k, Mode mode, const std::string& name, SlotPositions where) {
  if (where == SlotPositions::Apart && mode != Mode::Abundance)
    throw std::invalid_argument("pos bucketing: positions apart from the slots are Abundance's");
  const std::string slots_name = name + (where == SlotPositions::Apart ? " bucket r values" : " bucket slots");
  Buckets out{sequence.transient<std::uint32_t>(std::size_t(num_buckets(k)) * bucket_words(mode, where), slots_name),
              sequence.transient<std::uint32_t>(num_buckets(k), name + " bucket sizes"), where, {}};
  if (where == SlotPositions::Apart)
    out.positions = sequence.transient<std::uint32_t>(bucket_position_words(k), name + " bucket positions");
  return out;
}

namespace {

// Subspace's bucketing temporaries, made by its first step and shared by the others.
struct RunScratch {
  DeviceBuffer<std::uint32_t> keys, values, starts, ends;
};

// Subspace's tables are in y order: every bucket is one run of positions.
std::vector<RecordStep> run_steps(Device& device, int k, const DeviceBuffer<std::uint32_t>& ys,
                                  const DeviceBuffer<std::uint32_t>& pair_sizes, std::uint32_t count,
                                  const Buckets& out) {
  const std::uint32_t hole = hole_key(k), capacity = bucket_capacity(Mode::Subspace);
  const std::uint32_t invocations = elementwise_invocations(device.info());
  auto scratch = std::make_shared<RunScratch>();
  return {
      [&, scratch, k, count, hole, invocations](Sequence& s) {
        *scratch = {s.transient<std::uint32_t>(count, "bucketing keys"),
                    s.transient<std::uint32_t>(count, "bucketing positions"),
                    s.transient<std::uint32_t>(num_buckets(k), "bucketing run starts"),
                    s.transient<std::uint32_t>(num_buckets(k), "bucketing run ends")};
        s.run(detail::bucket_keys_kernel(k, invocations), grid(count), ys, pair_sizes, scratch->keys, scratch->values,
              count, 0u, hole);
      },
      [&, scratch, count, hole, invocations](Sequence& s) {
        s.fill(scratch->starts, 0);
        s.fill(scratch->ends, 0);
        s.fill(out.sizes, 0);
        s.run(detail::bucket_runs_kernel(invocations), grid(count), scratch->keys, scratch->starts, scratch->ends,
              count, hole);
      },
      [&, scratch, count, hole, capacity, invocations](Sequence& s) {
        s.run(detail::bucket_slots_kernel(invocations), grid(count), scratch->keys, scratch->values, ys,
              scratch->starts, scratch->ends, out.slots, out.sizes, count, hole, capacity);
      },
  };
}

}  // namespace

std::vector<RecordStep> bucketing_steps(Device& device, int k, Mode mode, const DeviceBuffer<std::uint32_t>& ys,
                                        const DeviceBuffer<std::uint32_t>& pair_sizes, std::uint32_t slots_per_pair,
                                        std::uint32_t count, const Buckets& out, SlotLinkOutput links) {
  if (mode == Mode::Subspace) {
    if (slots_per_pair != 0) throw std::invalid_argument("pos bucketing: Subspace's tables have no holes");
    if (links.kind != SlotLinks::None || out.where != SlotPositions::InSlots)
      throw std::invalid_argument("pos bucketing: links and positions apart from the slots are Abundance's");
    return run_steps(device, k, ys, pair_sizes, count, out);
  }
  const std::uint32_t hole = hole_key(k), capacity = bucket_capacity(mode), buckets = num_buckets(k);
  const std::uint32_t invocations = elementwise_invocations(device.info());
  const std::uint32_t order_invocations = match_invocations(device.info());
  if ((links.kind != SlotLinks::None && !links.by_slot) || (links.kind == SlotLinks::FromLinks && !links.links))
    throw std::invalid_argument("pos bucketing: slot links need the buffers they are read from and written to");
  // `out` may be filled in by an earlier step of the same record: its layout is read when
  // the steps record, not now. Shared by the two steps: the arrival counts, the staging
  // where the slots are not it, and a one-word stand-in for the buffers a kernel binds and
  // this bucketing does not use.
  struct Scratch {
    DeviceBuffer<std::uint32_t> arrivals, staging, unused;
  };
  auto scratch = std::make_shared<Scratch>();
  return {
      [&, scratch, k, count, hole, slots_per_pair, capacity, buckets, invocations](Sequence& s) {
        const bool apart = out.where == SlotPositions::Apart;
        scratch->arrivals = s.transient<std::uint32_t>(buckets, "bucketing arrivals");
        scratch->unused = s.transient<std::uint32_t>(1, "bucketing stand-in");
        s.fill(scratch->unused, 0);  // bound, never read or written
        if (apart)
          scratch->staging = s.transient<std::uint32_t>(std::size_t(buckets) * staged_positions, "bucketing staging");
        s.fill(scratch->arrivals, 0);
        s.run(detail::bucket_scatter_kernel(k, capacity, invocations), grid(count), ys, pair_sizes, scratch->arrivals,
              apart ? scratch->staging : out.slots, count, slots_per_pair, hole);
      },
      [&, scratch, k, count, hole, slots_per_pair, capacity, buckets, order_invocations, links](Sequence& s) {
        const bool apart = out.where == SlotPositions::Apart;
        const Grid bucket_grid = sprig::detail::tile_grid(buckets, sprig::detail::TileShape{order_invocations, 1});
        // The fewest bits that leave each invocation one bin of positions.
        std::uint32_t bin_shift = 0;
        while (((count - 1) >> bin_shift) >= order_invocations) ++bin_shift;
        const DeviceBuffer<std::uint32_t>& unused = scratch->unused;
        s.run(detail::bucket_order_kernel(k, capacity, order_invocations, links.kind, out.where), bucket_grid, ys,
              pair_sizes, scratch->arrivals, out.slots, out.sizes,
              links.kind == SlotLinks::FromLinks ? *links.links : unused,
              links.kind != SlotLinks::None ? *links.by_slot : unused, apart ? scratch->staging : unused,
              apart ? out.positions : unused, count, slots_per_pair, hole, buckets, bin_shift);
      },
  };
}

}  // namespace sprig::pos
