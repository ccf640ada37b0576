// One tile of a scan, shared by the single-pass (look-back) and the reduce-then-scan
// kernels: load the tile, scan it inside each subgroup (items one after another, each a
// subgroup-wide scan), scan the subgroup totals, obtain the tile's exclusive prefix from a
// caller-supplied source, and write the results.
#pragma once

#include <vector>

#include "sprig/stdlib/tiling.hpp"
#include "sprig/stdlib/workgroup_scan.hpp"

namespace sprig::detail {

enum class ScanKind { Inclusive, Exclusive };

// Element count of tiles before `tile` and whether `tile` is complete, without overflow.
struct TileBounds {
  UInt first;
  Bool full;
};
inline TileBounds tile_bounds(const UInt& tile, const UInt& count,
                              const TileShape& shape) {
  UInt first = tile * shape.elements();
  return {first, count - first >= shape.elements()};
}

// Number of tiles covering `count` elements, on the device.
inline UInt tiles_covering(const UInt& count, const TileShape& shape) {
  return count / shape.elements() + select(count % shape.elements() != 0u, 1u, 0u);
}

// Loads this invocation's items of a tile into `items` (identity past the end).
template <DeviceValue T, Access A, bool C>
void load_items_into(std::vector<Var<T>>& items, const BufferParam<T, A, C>& in, const TileBounds& bounds,
                     const UInt& count, const TileShape& shape, const Expr<T>& identity) {
  std::vector<UInt> index;
  for (std::uint32_t j = 0; j < shape.items; ++j) {
    items[j] = identity;
    index.push_back(striped_index(bounds.first, shape.items, j));
  }
  // Full tiles (all but the last) skip the bounds checks.
  if_(bounds.full, [&] {
    for (std::uint32_t j = 0; j < shape.items; ++j) items[j] = Expr<T>(in[index[j]]);
  }).else_([&] {
    for (std::uint32_t j = 0; j < shape.items; ++j) {
      if constexpr (ScalarOrVector<T>) {
        // Without branches: the subgroup operations that follow then need no reconvergence
        // after a divergent branch (Vulkan does not promise it without
        // VK_KHR_shader_maximal_reconvergence). The clamped index stays inside the buffer.
        Expr<T> loaded = in[min(index[j], count - 1u)];
        items[j] = select(index[j] < count, loaded, identity);
      } else {
        if_(index[j] < count, [&] { items[j] = Expr<T>(in[index[j]]); });
      }
    }
  });
}

// The same into new variables.
template <DeviceValue T, Access A, bool C>
std::vector<Var<T>> load_items(const BufferParam<T, A, C>& in, const TileBounds& bounds, const UInt& count,
                               const TileShape& shape, const Expr<T>& identity) {
  std::vector<Var<T>> items;
  items.reserve(shape.items);  // a Var copy would declare a new device variable
  for (std::uint32_t j = 0; j < shape.items; ++j) items.emplace_back(identity);
  load_items_into(items, in, bounds, count, shape, identity);
  return items;
}

template <DeviceValue T, Access A, bool C>
void store_items(const BufferParam<T, A, C>& out, const std::vector<Expr<T>>& values, const TileBounds& bounds,
                 const UInt& count, const TileShape& shape) {
  std::vector<UInt> index;
  for (std::uint32_t j = 0; j < shape.items; ++j) index.push_back(striped_index(bounds.first, shape.items, j));
  if_(bounds.full, [&] {
    for (std::uint32_t j = 0; j < shape.items; ++j) out[index[j]] = values[j];
  }).else_([&] {
    for (std::uint32_t j = 0; j < shape.items; ++j) if_(index[j] < count, [&] { out[index[j]] = values[j]; });
  });
}

// The scan of one tile. `prefix_of(aggregate)` runs in subgroup 0 (all its lanes) with the
// tile's total and returns the tile's exclusive prefix; if it may spin, `closing` is the
// barrier that follows it.
template <DeviceValue T, AssociativeOperator Op, class PrefixSource>
void scan_tile(const Op& op, const TileShape& shape, ScanKind kind, const ReadBuffer<T>& in, const WriteBuffer<T>& out,
               const UInt& count, const UInt& tile, const SubgroupScan<T, Op>& lanes,
               SubgroupTotalsScan<T, Op>& totals, PrefixSource&& prefix_of, const SpinSafeBarrier* closing = nullptr) {
  auto tile_prefix = shared<T>("tile_prefix");
  TileBounds bounds = tile_bounds(tile, count, shape);
  std::vector<Var<T>> items = load_items(in, bounds, count, shape, lanes.identity());

  // Items are consecutive runs of subgroup_size elements: scan each across the lanes and
  // chain them with the running total of the runs before.
  std::vector<Expr<T>> scanned, run_totals;
  for (std::uint32_t j = 0; j < shape.items; ++j) {
    Expr<T> x = items[j].load();
    Expr<T> s = lanes.inclusive(x);
    run_totals.push_back(lanes.last(s));
    if (kind == ScanKind::Inclusive) scanned.push_back(s);
    else scanned.push_back(lanes.exclusive(x, s));
  }
  std::vector<Expr<T>> carried{scanned[0]};
  Expr<T> carry = run_totals[0];
  for (std::uint32_t j = 1; j < shape.items; ++j) {
    carried.push_back(op(carry, scanned[j]));
    carry = op(carry, run_totals[j]);
  }

  totals.scan(carry, [&](const Expr<T>& aggregate) {
    Expr<T> p = prefix_of(aggregate);
    if_(lanes.lane() == 0u, [&] { tile_prefix = p; });
  }, closing);
  Expr<T> prefix = op(tile_prefix.load(), totals.exclusive_prefix());
  std::vector<Expr<T>> results;
  for (std::uint32_t j = 0; j < shape.items; ++j) results.push_back(op(prefix, carried[j]));
  store_items(out, results, bounds, count, shape);
}

// The fold of one tile (no output): returns the aggregate in subgroup 0 via `with_total`.
template <DeviceValue T, AssociativeOperator Op, class WithTotal>
void reduce_tile(const Op& op, const TileShape& shape, const ReadBuffer<T>& in, const UInt& count,
                 const UInt& tile, const SubgroupScan<T, Op>& lanes, SubgroupTotalsScan<T, Op>& totals,
                 WithTotal&& with_total) {
  TileBounds bounds = tile_bounds(tile, count, shape);
  std::vector<Var<T>> items = load_items(in, bounds, count, shape, lanes.identity());
  Expr<T> carry = lanes.fold(items[0].load());
  for (std::uint32_t j = 1; j < shape.items; ++j) carry = op(carry, lanes.fold(items[j].load()));
  totals.scan(carry, with_total);
}

}  // namespace sprig::detail
