// Reduction of a device buffer with an associative operator:
//
//   std::uint32_t total = sprig::reduce(device, values);                 // sum
//   float top = sprig::reduce(device, values, sprig::maximum<float>());
//   sprig::reduce(device, sequence, values, result, op);                // result[0], recorded
//
// Two launches: a grid of at most 1024 workgroups each folds a contiguous run of tiles to
// one value, then one workgroup folds those. Commutative operators keep one accumulator
// per item slot in registers (independent chains, so loads stay in flight) and fold
// across lanes once at the end; others fold each tile in sequence order.
#pragma once

#include <stdexcept>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig {

namespace detail {

constexpr std::uint32_t max_reduce_workgroups = 1024;

template <DeviceValue T, AssociativeOperator Op>
auto reduce_kernel(const Op& op, SubgroupScanForm form, TileShape shape) {
  std::string name = "reduce<" + type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<T> in, WriteBuffer<T> partials, UInt count,
                            UInt tiles_per_workgroup) {
      SubgroupScan<T, Op> lanes(op, shape.invocations, form);
      SubgroupTotalsScan<T, Op> totals(lanes, shape.invocations);
      UInt group = linear_workgroup_id();
      UInt first_tile = group * tiles_per_workgroup;
      UInt end_tile = min(first_tile + tiles_per_workgroup, tiles_covering(count, shape));
      auto publish = [&](const Expr<T>& total) {
        if_(lanes.lane() == 0u, [&] { partials[group] = total; });
      };
      if (op.commutative) {
        std::vector<Var<T>> acc;
        acc.reserve(shape.items);
        for (std::uint32_t j = 0; j < shape.items; ++j) acc.emplace_back(lanes.identity());
        for_(first_tile, end_tile, [&](UInt tile) {
          TileBounds bounds = tile_bounds(tile, count, shape);
          std::vector<Var<T>> items = load_items(in, bounds, count, shape, lanes.identity());
          for (std::uint32_t j = 0; j < shape.items; ++j) acc[j] = op(acc[j].load(), items[j].load());
        });
        Expr<T> mine = acc[0].load();
        for (std::uint32_t j = 1; j < shape.items; ++j) mine = op(mine, acc[j].load());
        totals.scan(lanes.fold(mine), publish);
      } else {
        Var<T> carry = lanes.identity();
        for_(first_tile, end_tile, [&](UInt tile) {
          reduce_tile<T>(op, shape, in, count, tile, lanes, totals, [&](const Expr<T>&) {});
          carry = op(carry.load(), totals.workgroup_total());
          barrier();  // the totals are rewritten by the next tile
        });
        totals.scan(lanes.identity(), [&](const Expr<T>&) { publish(carry.load()); });
      }
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>(name + op.cache_key() + form.key() + shape_key(shape), trace);
}

// What reduce(device, sequence, ...) records; a function of its own so that the library's
// sums can be compiled once (below).
template <DeviceValue T, AssociativeOperator Op>
void record_reduce(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& result,
                   const Op& op) {
  if (result.size() < 1) throw std::invalid_argument("reduce: the result buffer is empty");
  check_scan_sizes(in.size(), in.size(), "reduce");
  TileShape shape = scan_shape<T>(device.info());
  const auto& k = reduce_kernel<T>(op, subgroup_scan_form(device.info()), shape);
  std::size_t tiles = shape.tiles_for(in.size());
  if (tiles <= 1) {
    sequence.run(k, grid(shape.invocations), in, result, std::uint32_t(in.size()), 1u);
    return;
  }
  std::size_t per_group = (tiles + max_reduce_workgroups - 1) / max_reduce_workgroups;
  std::size_t groups = (tiles + per_group - 1) / per_group;
  auto partials = sequence.transient<T>(groups, "reduce partials");
  sequence.run(k, tile_grid(groups, shape), in, partials, std::uint32_t(in.size()), std::uint32_t(per_group));
  sequence.run(k, grid(shape.invocations), partials, result, std::uint32_t(groups),
               std::uint32_t(shape.tiles_for(groups)));
}

// Sums of the common element types are compiled once, in stdlib/src/reduce_instances.cpp.
extern template void record_reduce<std::uint32_t, SumOperator<std::uint32_t>>(Device&, Sequence&,
                                                                              const DeviceBuffer<std::uint32_t>&,
                                                                              const DeviceBuffer<std::uint32_t>&,
                                                                              const SumOperator<std::uint32_t>&);
extern template void record_reduce<std::int32_t, SumOperator<std::int32_t>>(Device&, Sequence&,
                                                                            const DeviceBuffer<std::int32_t>&,
                                                                            const DeviceBuffer<std::int32_t>&,
                                                                            const SumOperator<std::int32_t>&);
extern template void record_reduce<std::uint64_t, SumOperator<std::uint64_t>>(Device&, Sequence&,
                                                                              const DeviceBuffer<std::uint64_t>&,
                                                                              const DeviceBuffer<std::uint64_t>&,
                                                                              const SumOperator<std::uint64_t>&);
extern template void record_reduce<float, SumOperator<float>>(Device&, Sequence&, const DeviceBuffer<float>&,
                                                              const DeviceBuffer<float>&, const SumOperator<float>&);

}  // namespace detail

// Records the fold of `in` (the identity when empty) into result[0].
template <DeviceValue T, AssociativeOperator Op>
void reduce(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& result,
            const Op& op) {
  detail::record_reduce(device, sequence, in, result, op);
}

template <DeviceValue T, AssociativeOperator Op>
T reduce(Device& device, const DeviceBuffer<T>& in, const Op& op) {
  auto result = device.alloc<T>(1);
  auto sequence = device.sequence();
  reduce(device, sequence, in, result, op);
  sequence.run_and_wait();
  return device.download(result)[0];
}

template <detail::ScalarNumber T>
T reduce(Device& device, const DeviceBuffer<T>& in) {
  return reduce(device, in, plus<T>());
}

}  // namespace sprig
