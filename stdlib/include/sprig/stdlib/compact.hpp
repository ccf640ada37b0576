// Stream compaction, stable: copy_if keeps the elements a DSL predicate accepts, in
// order, and returns how many; partition puts the accepted ones first and the rejected
// ones after them, both in their original order (std::stable_partition). Both also move
// a payload buffer along with the keys.
//
//   std::size_t kept = sprig::copy_if(device, in, out, [](UInt x) { return (x & 1u) == 0u; });
//   std::size_t front = sprig::partition(device, in, out, pred);
//
// One pass (plus a counting pass for partition, whose rejected elements start where the
// accepted ones end), ranked tile by tile as compaction_tile.hpp says. Writes go straight
// from registers.
#pragma once

#include <stdexcept>
#include <type_traits>
#include <typeinfo>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/compaction_tile.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig {

namespace detail {

enum class CompactKind { CopyIf, Partition };

// 96 bytes per invocation in workgroups of 512 where the device allows them: larger tiles
// mean fewer look-back steps (docs/benchmarks.md, "Parallel primitives", has the shapes
// measured against each other).
inline TileShape compact_shape(std::size_t item_bytes, const DeviceInfo& device) {
  std::uint32_t invocations = 512;
  while (invocations > 64 && invocations > device.max_workgroup_invocations) invocations /= 2;
  return TileShape{invocations, std::clamp<std::uint32_t>(96 / std::uint32_t(item_bytes), 1, 24)};
}
template <DeviceValue T>
TileShape compact_shape(const DeviceInfo& device) {
  return compact_shape(sizeof(T), device);
}
// Counts the elements `pred` accepts into counter[0] (atomically: the sum is exact in any order).
template <DeviceValue T, class Pred>
auto count_if_kernel(Pred pred, const TileShape& shape) {
  std::string name = "count_if<" + type_name<T>() + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<T> in, Buffer<std::uint32_t> counter, UInt count) {
      auto op = plus<std::uint32_t>();
      SubgroupScan<std::uint32_t, decltype(op)> lanes(op, shape.invocations);
      UInt tile = linear_workgroup_id();
      if_(tile >= tiles_covering(count, shape), [] { return_(); });
      TileBounds bounds = tile_bounds(tile, count, shape);
      std::vector<Var<T>> items = load_items(in, bounds, count, shape, Expr<T>(in[0u]));
      UInt mine = 0u;
      for (std::uint32_t j = 0; j < shape.items; ++j) {
        Bool valid = striped_index(bounds.first, shape.items, j) < count;
        mine = mine + select(valid && pred(items[j].load()), 1u, 0u);
      }
      UInt in_subgroup = subgroup_add(mine);
      if_(lanes.lane() == 0u, [&] { atomic_add(counter[0], in_subgroup); });
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>(name + type_key<Pred>() + shape_key(shape), trace);
}

// The compaction pass. `kept[0]` receives the number kept (CopyIf) or holds it already
// (Partition). Payloads of type V move with the keys when `with_values`.
template <DeviceValue T, DeviceValue V, class Pred>
auto compact_kernel(Pred pred, CompactKind kind, bool with_values, const LookBackTraits& traits,
                    SubgroupScanForm form, const TileShape& shape) {
  std::string name = std::string(kind == CompactKind::CopyIf ? "copy_if<" : "partition<") + type_name<T>() +
                     (with_values ? "," + type_name<V>() : std::string()) + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<T> in, WriteBuffer<T> out, ReadBuffer<V> in_values, WriteBuffer<V> out_values,
                            CoherentBuffer<std::uint64_t> status, Buffer<std::uint32_t> kept,
                            UInt count) {
      CompactionTile work(shape, traits, status, form);
      UInt tile = work.acquire();
      UInt tiles = tiles_covering(count, shape);
      if_(tile >= tiles, [] { return_(); });
      TileBounds bounds = tile_bounds(tile, count, shape);
      std::vector<Var<T>> items = load_items(in, bounds, count, shape, Expr<T>(in[0u]));

      std::vector<UInt> index;
      std::vector<Bool> valid, keep;
      for (std::uint32_t j = 0; j < shape.items; ++j) {
        index.push_back(striped_index(bounds.first, shape.items, j));
        valid.push_back(index[j] < count);
        keep.push_back(valid[j] && pred(items[j].load()));
      }
      std::vector<UInt> kept_before = work.destinations(keep, tile, [&](const UInt& n) {
        if (kind == CompactKind::CopyIf) if_(tile == tiles - 1u, [&] { kept[0] = n; });
      });
      UInt accepted_total = kind == CompactKind::Partition ? UInt(kept[0]) : UInt(0u);
      for (std::uint32_t j = 0; j < shape.items; ++j) {
        auto move_to = [&](const UInt& destination) {
          out[destination] = items[j].load();
          if (with_values) out_values[destination] = Expr<V>(in_values[index[j]]);
        };
        if (kind == CompactKind::CopyIf) {
          if_(keep[j], [&] { move_to(kept_before[j]); });
        } else {
          if_(keep[j], [&] { move_to(kept_before[j]); })
              .else_if_(valid[j], [&] { move_to(accepted_total + (index[j] - kept_before[j])); });
        }
      }
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>(name + type_key<Pred>() + traits.key() + form.key() + shape_key(shape),
                                          trace);
}

template <DeviceValue T, DeviceValue V, class Pred>
void record_compaction(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out,
                       const DeviceBuffer<V>* in_values, const DeviceBuffer<V>* out_values,
                       const DeviceBuffer<std::uint32_t>& kept, Pred pred, CompactKind kind) {
  static_assert(std::is_empty_v<Pred>, "a predicate lambda must capture nothing (kernels using it are cached)");
  const char* what = kind == CompactKind::CopyIf ? "copy_if" : "partition";
  check_scan_sizes(in.size(), out.size(), what);
  if (in_values && (in_values->size() < in.size() || out_values->size() < in.size()))
    throw std::invalid_argument(std::string(what) + ": the value buffers are smaller than the keys");
  sequence.fill(kept, 0);
  if (in.size() == 0) return;
  TileShape shape = compact_shape<T>(device.info());
  std::size_t tiles = shape.tiles_for(in.size());
  auto count = std::uint32_t(in.size());
  auto status = sequence.transient<std::uint64_t>(tile_status_words(tiles), "compaction tile status");
  sequence.fill(status, 0);
  if (kind == CompactKind::Partition)
    sequence.run(count_if_kernel<T>(pred, shape), tile_grid(tiles, shape), in, kept, count);
  bool with_values = in_values != nullptr;
  DeviceBuffer<V> dummy;
  if (!with_values) dummy = sequence.transient<V>(1, "compaction no values");
  sequence.run(compact_kernel<T, V>(pred, kind, with_values, lookback_traits(device.info()),
                                           subgroup_scan_form(device.info()), shape),
               tile_grid(tiles, shape), in, out, with_values ? *in_values : dummy, with_values ? *out_values : dummy,
               status, kept, count);
}

template <class F>
std::size_t run_counting(Device& device, F&& record) {
  auto kept = device.alloc<std::uint32_t>(1);
  auto sequence = device.sequence();
  record(sequence, kept);
  sequence.run_and_wait();
  return device.download(kept)[0];
}

}  // namespace detail

// Records copy_if; kept[0] receives the number of elements kept.
template <DeviceValue T, class Pred>
void copy_if(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out,
             const DeviceBuffer<std::uint32_t>& kept, Pred pred) {
  detail::record_compaction<T, std::uint32_t>(device, sequence, in, out, nullptr, nullptr, kept, pred,
                                              detail::CompactKind::CopyIf);
}
template <DeviceValue T, class Pred>
std::size_t copy_if(Device& device, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out, Pred pred) {
  return detail::run_counting(device, [&](Sequence& s, const DeviceBuffer<std::uint32_t>& kept) {
    copy_if(device, s, in, out, kept, pred);
  });
}
// Keys and their payloads, selected by the key.
template <DeviceValue T, DeviceValue V, class Pred>
std::size_t copy_if(Device& device, const DeviceBuffer<T>& keys, const DeviceBuffer<V>& values,
                    const DeviceBuffer<T>& out_keys, const DeviceBuffer<V>& out_values, Pred pred) {
  return detail::run_counting(device, [&](Sequence& s, const DeviceBuffer<std::uint32_t>& kept) {
    detail::record_compaction<T, V>(device, s, keys, out_keys, &values, &out_values, kept, pred,
                                    detail::CompactKind::CopyIf);
  });
}

// Records a stable partition; kept[0] receives the number of accepted elements.
template <DeviceValue T, class Pred>
void partition(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out,
               const DeviceBuffer<std::uint32_t>& kept, Pred pred) {
  detail::record_compaction<T, std::uint32_t>(device, sequence, in, out, nullptr, nullptr, kept, pred,
                                              detail::CompactKind::Partition);
}
template <DeviceValue T, class Pred>
std::size_t partition(Device& device, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out, Pred pred) {
  return detail::run_counting(device, [&](Sequence& s, const DeviceBuffer<std::uint32_t>& kept) {
    partition(device, s, in, out, kept, pred);
  });
}
template <DeviceValue T, DeviceValue V, class Pred>
std::size_t partition(Device& device, const DeviceBuffer<T>& keys, const DeviceBuffer<V>& values,
                      const DeviceBuffer<T>& out_keys, const DeviceBuffer<V>& out_values, Pred pred) {
  return detail::run_counting(device, [&](Sequence& s, const DeviceBuffer<std::uint32_t>& kept) {
    detail::record_compaction<T, V>(device, s, keys, out_keys, &values, &out_values, kept, pred,
                                    detail::CompactKind::Partition);
  });
}

}  // namespace sprig
