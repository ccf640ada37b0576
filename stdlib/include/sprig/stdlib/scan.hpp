// Inclusive and exclusive scans (prefix folds) over a device buffer, for any associative
// operator:
//
//   sprig::inclusive_scan(device, in, out);                          // sums
//   sprig::exclusive_scan(device, in, out, sprig::maximum<float>());
//   sprig::inclusive_scan(device, sequence, in, out, op);           // recorded, not run
//
// Two strategies, both reading the input once per pass:
//   * DecoupledLookBack: one pass; tiles chain their prefixes through device memory
//     (decoupled_lookback.hpp). Moves 2n elements.
//   * ReduceThenScan: a pass of tile totals, a scan of those by one workgroup, a pass that
//     scans each tile from its prefix. Moves 3n elements; no workgroup ever waits for
//     another.
// Auto takes the look-back where the device has 64-bit atomics (its status words), and
// reduce-then-scan otherwise.
#pragma once

#include <algorithm>
#include <optional>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/decoupled_lookback.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/scan_tile.hpp"
#include "sprig/stdlib/scan_tile_vectorized.hpp"
#include "sprig/stdlib/vector_view.hpp"

namespace sprig {

enum class ScanMode { Auto, DecoupledLookBack, ReduceThenScan };

struct ScanOptions {
  ScanMode mode = ScanMode::Auto;
  // Tuning: invocations per workgroup and elements per invocation (0: the defaults).
  std::uint32_t workgroup_size = 0;
  std::uint32_t items_per_invocation = 0;
  // Full tiles of 4-byte scalars move as 4-vectors (items_per_invocation a multiple of 4).
  // Off by default: it is not reliably faster than scalar tiles, and much slower at some
  // shapes (docs/benchmarks.md, "Parallel primitives").
  bool vectorized = false;
  // Idle-loop iterations of a look-back between polls of a pending predecessor (unset: none;
  // poll_pause.hpp says why; ignored where the driver caps loops).
  std::optional<std::uint32_t> lookback_idle_iterations = std::nullopt;
};

namespace detail {

ScanMode resolve_scan_mode(ScanMode requested, const DeviceInfo& device);

// Items per invocation: enough bytes in flight per invocation to saturate memory, few
// enough registers to keep several workgroups resident. 256 invocations, or the most the
// device allows below that.
template <DeviceValue T>
TileShape scan_shape(const DeviceInfo& device) {
  constexpr std::uint32_t bytes = sizeof(T);
  return TileShape{fit_invocations(256, device), std::clamp<std::uint32_t>(64 / bytes, 1, 16)};
}

template <DeviceValue T>
TileShape scan_shape(const ScanOptions& options, const DeviceInfo& device) {
  TileShape shape = scan_shape<T>(device);
  if (options.workgroup_size) shape.invocations = options.workgroup_size;
  if (options.items_per_invocation) shape.items = options.items_per_invocation;
  return shape;
}

inline std::string shape_key(const TileShape& shape) {
  return "/" + std::to_string(shape.invocations) + "x" + std::to_string(shape.items);
}

template <DeviceValue T>
std::string type_name() {
  return ir::to_string(device_type<T>());
}

template <DeviceValue T, AssociativeOperator Op>
auto lookback_scan_kernel(const Op& op, ScanKind kind, const LookBackTraits& traits, SubgroupScanForm form,
                          TileShape shape) {
  std::string name = std::string(kind == ScanKind::Inclusive ? "inclusive" : "exclusive") + "_scan_lookback<" +
                     type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<T> in, WriteBuffer<T> out, CoherentBuffer<std::uint64_t> status,
                            CoherentBuffer<T> values, UInt count) {
      SubgroupScan<T, Op> lanes(op, shape.invocations, form);
      SubgroupTotalsScan<T, Op> totals(lanes, shape.invocations);
      DecoupledLookBack<T, Op> lookback(lanes, traits, status, values);
      SpinSafeBarrier after_lookback(traits.counted_barrier, traits.pause);
      after_lookback.reset();
      UInt tile = acquire_tile(status);
      if_(tile >= tiles_covering(count, shape), [] { return_(); });
      scan_tile<T>(op, shape, kind, in, out, count, tile, lanes, totals,
                   [&](const Expr<T>& aggregate) { return lookback.exclusive_prefix(tile, aggregate); },
                   &after_lookback);
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>(name + op.cache_key() + traits.key() + form.key() + shape_key(shape),
                                          trace);
}

// The look-back scan of 4-byte scalars whose full tiles move as 4-vectors; `in4`/`out4`
// are `in`/`out` viewed as vectors.
template <VectorizableScalar T, AssociativeOperator Op>
auto lookback_scan_vectorized_kernel(const Op& op, ScanKind kind, const LookBackTraits& traits, SubgroupScanForm form,
                                     TileShape shape) {
  using V = vector4_t<T>;
  std::string name = std::string(kind == ScanKind::Inclusive ? "inclusive" : "exclusive") + "_scan_lookback_vec4<" +
                     type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<T> in, ReadBuffer<V> in4, WriteBuffer<T> out, WriteBuffer<V> out4,
                            CoherentBuffer<std::uint64_t> status, UInt count) {
      SubgroupScan<T, Op> lanes(op, shape.invocations, form);
      SubgroupTotalsScan<T, Op> totals(lanes, shape.invocations);
      DecoupledLookBack<T, Op> lookback(lanes, traits, status);
      SpinSafeBarrier after_lookback(traits.counted_barrier, traits.pause);
      after_lookback.reset();
      UInt tile = acquire_tile(status);
      if_(tile >= tiles_covering(count, shape), [] { return_(); });
      auto prefix_of = [&](const Expr<T>& aggregate) { return lookback.exclusive_prefix(tile, aggregate); };
      if_(tile_bounds(tile, count, shape).full, [&] {
        scan_full_tile_vectorized<T>(op, shape, kind, in4, out4, tile, lanes, totals, prefix_of, &after_lookback);
      }).else_([&] {
        scan_tile<T>(op, shape, kind, in, out, count, tile, lanes, totals, prefix_of, &after_lookback);
      });
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>(name + op.cache_key() + traits.key() + form.key() + shape_key(shape),
                                          trace);
}

template <DeviceValue T, AssociativeOperator Op>
auto tile_totals_kernel(const Op& op, SubgroupScanForm form, TileShape shape) {
  std::string name = "scan_tile_totals<" + type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<T> in, WriteBuffer<T> totals_out, UInt count) {
      SubgroupScan<T, Op> lanes(op, shape.invocations, form);
      SubgroupTotalsScan<T, Op> totals(lanes, shape.invocations);
      UInt tile = linear_workgroup_id();
      if_(tile >= tiles_covering(count, shape), [] { return_(); });
      reduce_tile<T>(op, shape, in, count, tile, lanes, totals, [&](const Expr<T>& total) {
        if_(lanes.lane() == 0u, [&] { totals_out[tile] = total; });
      });
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>(name + op.cache_key() + form.key() + shape_key(shape), trace);
}

// One workgroup of `invocations` replaces `values[0, count)` by its exclusive scan, a chunk
// at a time.
template <DeviceValue T, AssociativeOperator Op>
auto single_workgroup_exclusive_scan_kernel(const Op& op, SubgroupScanForm form, std::uint32_t invocations) {
  std::string name = "exclusive_scan_one_workgroup<" + type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    return kernel(name, [=](Buffer<T> values, UInt count) {
      SubgroupScan<T, Op> lanes(op, invocations, form);
      SubgroupTotalsScan<T, Op> totals(lanes, invocations);
      Var<T> carry = lanes.identity();
      for_(0u, count, invocations, [&](UInt base) {
        UInt i = base + subgroup_id() * subgroup_size() + subgroup_invocation_id();
        Var<T> x = lanes.identity();
        if_(i < count, [&] { x = Expr<T>(values[i]); });
        Expr<T> s = lanes.inclusive(x.load());
        Expr<T> e = lanes.exclusive(x.load(), s);
        totals.scan(lanes.last(s));
        Expr<T> result = op(carry.load(), op(totals.exclusive_prefix(), e));
        if_(i < count, [&] { values[i] = result; });
        carry = op(carry.load(), totals.workgroup_total());
        barrier();  // the totals are rewritten by the next chunk
      });
    }, workgroup(invocations));
  };
  return cached_kernel<decltype(trace())>(name + op.cache_key() + form.key() + "/" + std::to_string(invocations),
                                          trace);
}

template <DeviceValue T, AssociativeOperator Op>
auto prefixed_scan_kernel(const Op& op, ScanKind kind, SubgroupScanForm form, TileShape shape) {
  std::string name = std::string(kind == ScanKind::Inclusive ? "inclusive" : "exclusive") + "_scan_prefixed<" +
                     type_name<T>() + "," + op.name + ">";
  auto trace = [=] {
    return kernel(name, [=](ReadBuffer<T> in, WriteBuffer<T> out, ReadBuffer<T> tile_prefixes,
                            UInt count) {
      SubgroupScan<T, Op> lanes(op, shape.invocations, form);
      SubgroupTotalsScan<T, Op> totals(lanes, shape.invocations);
      UInt tile = linear_workgroup_id();
      if_(tile >= tiles_covering(count, shape), [] { return_(); });
      scan_tile<T>(op, shape, kind, in, out, count, tile, lanes, totals,
                   [&](const Expr<T>&) { return Expr<T>(tile_prefixes[tile]); });
    }, workgroup(shape.invocations));
  };
  return cached_kernel<decltype(trace())>(name + op.cache_key() + form.key() + shape_key(shape), trace);
}

void check_scan_sizes(std::size_t in, std::size_t out, const char* what);

// The look-back scan's tiles: workgroups of 512 invocations where the device allows them,
// as fewer, larger tiles mean fewer look-backs (docs/benchmarks.md, "Parallel primitives",
// has the shapes measured with bench_scan).
template <DeviceValue T>
TileShape lookback_scan_shape(const ScanOptions& options, const DeviceInfo& device) {
  TileShape shape = scan_shape<T>(options, device);
  if (options.workgroup_size) return shape;
  // Shared memory: the subgroup totals and, for types without subgroup instructions, the
  // lanes' exchange slots, one T per invocation each; the tile's prefix; two counters.
  auto fits = [&] {
    return shape.invocations <= device.max_workgroup_invocations &&
           (2 * shape.invocations + 1) * sizeof(T) + 8 <= device.max_shared_memory;
  };
  shape.invocations = fit_invocations(512, device);
  while (shape.invocations > device.subgroup_size && !fits()) shape.invocations /= 2;
  return shape;
}

// The bytes of the transients a scan of n elements records (callers that plan memory
// around a scan, such as the radix sort under a budget, count them).
template <DeviceValue T>
std::uint64_t scan_scratch_bytes(const DeviceInfo& device, std::size_t n, const ScanOptions& options = {}) {
  if (n == 0) return 0;
  if (resolve_scan_mode(options.mode, device) == ScanMode::DecoupledLookBack) {
    std::size_t tiles = lookback_scan_shape<T>(options, device).tiles_for(n);
    return tile_status_words(tiles) * sizeof(std::uint64_t) + tile_value_slots<T>(tiles) * sizeof(T);
  }
  return scan_shape<T>(options, device).tiles_for(n) * sizeof(T);
}

template <DeviceValue T, AssociativeOperator Op>
void record_scan(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out,
                 const Op& op, ScanKind kind, ScanOptions options) {
  check_scan_sizes(in.size(), out.size(), kind == ScanKind::Inclusive ? "inclusive_scan" : "exclusive_scan");
  std::size_t n = in.size();
  if (n == 0) return;
  bool lookback = resolve_scan_mode(options.mode, device.info()) == ScanMode::DecoupledLookBack;
  TileShape shape = lookback ? lookback_scan_shape<T>(options, device.info()) : scan_shape<T>(options, device.info());
  std::size_t tiles = shape.tiles_for(n);
  auto count = std::uint32_t(n);
  const SubgroupScanForm form = subgroup_scan_form(device.info());
  if (lookback) {
    auto status = sequence.transient<std::uint64_t>(tile_status_words(tiles), "scan tile status");
    auto values = sequence.transient<T>(tile_value_slots<T>(tiles), "scan tile values");
    sequence.fill(status, 0);
    LookBackTraits traits = lookback_traits(device.info());
    // Where loops are capped an idle loop would spend the cap (poll_pause.hpp).
    if (options.lookback_idle_iterations && !device.info().quirks.has(Quirk::LoopBackEdgeCap))
      traits.pause.idle_iterations = *options.lookback_idle_iterations;
    if constexpr (VectorizableScalar<T>) {
      if (options.vectorized && shape.items % 4 == 0 && n >= 4) {
        sequence.run(lookback_scan_vectorized_kernel<T>(op, kind, traits, form, shape), tile_grid(tiles, shape), in,
                     as_vectors(in), out, as_vectors(out), status, count);
        return;
      }
    }
    sequence.run(lookback_scan_kernel<T>(op, kind, traits, form, shape), tile_grid(tiles, shape), in, out, status, values,
                 count);
  } else {
    auto prefixes = sequence.transient<T>(tiles, "scan tile prefixes");
    sequence.run(tile_totals_kernel<T>(op, form, shape), tile_grid(tiles, shape), in, prefixes, count);
    const std::uint32_t one_workgroup = fit_invocations(256, device.info());
    sequence.run(single_workgroup_exclusive_scan_kernel<T>(op, form, one_workgroup), grid(one_workgroup), prefixes,
                 std::uint32_t(tiles));
    sequence.run(prefixed_scan_kernel<T>(op, kind, form, shape), tile_grid(tiles, shape), in, out, prefixes, count);
  }
}

// Sums of the common element types are compiled once, in
// stdlib/src/scan_instances.cpp: a user's translation unit does not trace them again.
extern template void record_scan<std::uint32_t, SumOperator<std::uint32_t>>(Device&, Sequence&,
                                                                            const DeviceBuffer<std::uint32_t>&,
                                                                            const DeviceBuffer<std::uint32_t>&,
                                                                            const SumOperator<std::uint32_t>&, ScanKind,
                                                                            ScanOptions);
extern template void record_scan<std::int32_t, SumOperator<std::int32_t>>(Device&, Sequence&,
                                                                          const DeviceBuffer<std::int32_t>&,
                                                                          const DeviceBuffer<std::int32_t>&,
                                                                          const SumOperator<std::int32_t>&, ScanKind,
                                                                          ScanOptions);
extern template void record_scan<std::uint64_t, SumOperator<std::uint64_t>>(Device&, Sequence&,
                                                                            const DeviceBuffer<std::uint64_t>&,
                                                                            const DeviceBuffer<std::uint64_t>&,
                                                                            const SumOperator<std::uint64_t>&, ScanKind,
                                                                            ScanOptions);
extern template void record_scan<float, SumOperator<float>>(Device&, Sequence&, const DeviceBuffer<float>&,
                                                            const DeviceBuffer<float>&, const SumOperator<float>&,
                                                            ScanKind, ScanOptions);

}  // namespace detail

// out[i] = in[0] op in[1] op ... op in[i]. `out` may be larger than `in`; the rest is left as is.
// `in` and `out` may be the same buffer (a scan in place): every tile reads its elements
// before it writes them, and no tile reads another's.
template <DeviceValue T, AssociativeOperator Op>
void inclusive_scan(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out,
                    const Op& op, ScanOptions options = {}) {
  detail::record_scan(device, sequence, in, out, op, detail::ScanKind::Inclusive, options);
}
// out[i] = identity op in[0] op ... op in[i - 1].
template <DeviceValue T, AssociativeOperator Op>
void exclusive_scan(Device& device, Sequence& sequence, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out,
                    const Op& op, ScanOptions options = {}) {
  detail::record_scan(device, sequence, in, out, op, detail::ScanKind::Exclusive, options);
}

template <DeviceValue T, AssociativeOperator Op>
void inclusive_scan(Device& device, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out, const Op& op,
                    ScanOptions options = {}) {
  auto sequence = device.sequence();
  inclusive_scan(device, sequence, in, out, op, options);
  sequence.run_and_wait();
}
template <DeviceValue T, AssociativeOperator Op>
void exclusive_scan(Device& device, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out, const Op& op,
                    ScanOptions options = {}) {
  auto sequence = device.sequence();
  exclusive_scan(device, sequence, in, out, op, options);
  sequence.run_and_wait();
}

// Sums.
template <detail::ScalarNumber T>
void inclusive_scan(Device& device, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out) {
  inclusive_scan(device, in, out, plus<T>());
}
template <detail::ScalarNumber T>
void exclusive_scan(Device& device, const DeviceBuffer<T>& in, const DeviceBuffer<T>& out) {
  exclusive_scan(device, in, out, plus<T>());
}

}  // namespace sprig
