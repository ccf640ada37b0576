// Multi-scalar multiplication: sum_i k_i P_i over affine points of curve C, by Pippenger's
// buckets with signed-digit (Booth) windows, every stage a kernel (docs/msm.md):
//
//   auto result = curve::msm<curve::Bn254G1>(device, points, scalars);   // result.point: Affine
//   auto many = curve::msm_batch<curve::Bn254G1>(device, points, scalar_vectors);
//   auto table = curve::msm_table<curve::Bn254G1>(device, points);   // fixed points: msm_table.hpp
//   auto again = curve::msm<curve::Bn254G1>(device, table, scalars);
//   auto split = curve::msm<curve::Bn254G1>(device, points, scalars, {.endomorphism = curve::Endomorphism::On});
//                // scalars split by the curve's endomorphism wherever it fits, not only where
//                // the default (Auto) finds it pays (endomorphism.hpp, msm_plan.hpp)
//
// Scalars are curve::MsmScalar<C> (the scalar field's Canonical struct): 256-bit integers
// as eight 32-bit words, least significant first. Any 256-bit value is accepted and reduced
// modulo r, which for points of the order-r group is the same sum. A buffer of
// curve::MsmMontgomeryScalar<C> (Montgomery form, any words) is taken as it is
// (msm_scalars.hpp). n = 0 gives the point at infinity; points and scalars of different
// lengths throw std::invalid_argument.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/curve/batch_affine.hpp"
#include "sprig/stdlib/curve/msm/bucket_accumulation.hpp"
#include "sprig/stdlib/curve/msm/bucket_grouping.hpp"
#include "sprig/stdlib/curve/msm/bucket_reduction.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/msm_scalars.hpp"
#include "sprig/stdlib/curve/msm/msm_table.hpp"
#include "sprig/stdlib/curve/msm/signed_digits.hpp"
#include "sprig/stdlib/curve/msm/split_points.hpp"
#include "sprig/stdlib/curve/msm/window_combination.hpp"

namespace sprig::curve {

template <ShortWeierstrass C>
struct MsmResult {
  Affine<C> point;                      // the sum; (0, 0) for the point at infinity
  std::uint32_t window_bits = 0;        // c
  std::uint32_t batches = 0;            // batches per MSM: of windows, times of points
  std::uint64_t peak_device_bytes = 0;  // the temporaries the MSM allocated
  std::uint64_t input_device_bytes = 0;  // the points and scalars, counted apart
};

template <ShortWeierstrass C>
struct MsmBatchResult {
  std::vector<Affine<C>> points;  // one per scalar vector
  std::uint32_t window_bits = 0;
  std::uint32_t batches = 0;
  std::uint64_t peak_device_bytes = 0;
  std::uint64_t input_device_bytes = 0;
};

namespace detail {

// The plan's buffers (names and sizes as msm_buffers lists them). Those of one batch are
// transients of the sequence, so the memory planner lets a batch's buffers share bytes where
// their lives do not overlap, and every batch reuse the bytes of the one before; the window
// sums and the results outlive the batches.
template <ShortWeierstrass C>
struct MsmResultBuffers {
  DeviceBuffer<Xyzz<C>> window_sums, results;
  DeviceBuffer<Affine<C>> affine_results;

  MsmResultBuffers(Device& device, const MsmPlan& plan)
      : window_sums(device.alloc<Xyzz<C>>(plan.buffer("window_sums").bytes / sizeof(Xyzz<C>), "msm window sums")),
        results(device.alloc<Xyzz<C>>(plan.msms, "msm results")),  // "results" counts these and affine_results
        affine_results(device.alloc<Affine<C>>(plan.msms, "msm affine results")) {}
};

template <ShortWeierstrass C>
struct MsmBatchBuffers {
  DeviceBuffer<std::uint32_t> digits, entries, bucket_counts, bucket_ends, run_buckets;
  DeviceBuffer<Xyzz<C>> partial_sums;

  MsmBatchBuffers(Sequence& sequence, const MsmPlan& plan) {
    auto words = [&](std::string_view name) { return std::max<std::uint64_t>(plan.buffer(name).bytes / 4, 1); };
    digits = sequence.transient<std::uint32_t>(words("digits"), "msm digits");
    entries = sequence.transient<std::uint32_t>(words("entries"), "msm entries");
    bucket_counts = sequence.transient<std::uint32_t>(words("bucket_counts"), "msm bucket counts");
    bucket_ends = sequence.transient<std::uint32_t>(words("bucket_ends"), "msm bucket ends");
    run_buckets = sequence.transient<std::uint32_t>(words("run_buckets"), "msm run buckets");
    partial_sums = sequence.transient<Xyzz<C>>(xyzz_count(plan, "partial_sums"), "msm partial sums");
  }

  static std::uint64_t xyzz_count(const MsmPlan& plan, std::string_view name) {
    return std::max<std::uint64_t>(plan.buffer(name).bytes / sizeof(Xyzz<C>), 1);
  }
};

// Where one batch stands in its set of buckets: the set is a batch of windows' (all of them
// over a table), and its batches are those of the points (of every window over a table).
struct MsmBatchRole {
  bool first_of_set = true;  // stores its sums into the set; a later batch adds its own
  bool last_of_set = true;   // reduces the set into window sums afterwards
  bool last = true;          // the MSM's last batch (after the last MSM's, Horner's rule for all)
};

// Records one batch of MSM `msm` (scalars [msm n, msm n + n)): windows [first_window,
// first_window + windows) of points [first_point, first_point + count) into the set of
// buckets `set`: the first batch of a set stores its bucket sums there, a later one adds its
// own, so that a set is reduced once, by its last batch, into the windows' sums (one sum
// over a table). Over a table of window multiples (plan.fixed_base; `points` the table's
// part whose first window is `part_first`) the batch's windows share one set.
template <ShortWeierstrass C, MsmScalarForm<C> S>
void record_msm_batch(Device& device, Sequence& sequence, const MsmPlan& plan, const MsmResultBuffers<C>& kept,
                      const DeviceBuffer<Xyzz<C>>& set, MsmBatchRole role, const DeviceBuffer<Affine<C>>& points,
                      std::uint32_t part_first, const DeviceBuffer<S>& scalars, std::uint32_t msm,
                      std::uint32_t first_window, std::uint32_t windows, std::uint64_t first_point,
                      std::uint64_t count) {
  const MsmBatchBuffers<C> buffers(sequence, plan);
  const std::uint32_t bucket_windows = plan.bucket_windows(windows);
  std::uint64_t bucket_count = std::uint64_t(bucket_windows) * plan.buckets;
  sequence.fill(buffers.bucket_counts, 0);
  auto decompose = [&](const auto& kernel) {
    sequence.run(kernel, msm_grid(count), scalars, buffers.digits, buffers.bucket_counts, std::uint32_t(count),
                 std::uint32_t(msm * plan.points + first_point), first_window, windows, plan.window_bits,
                 plan.fixed_base ? 0u : plan.buckets);
  };
  if constexpr (HasEndomorphism<C>) {
    if (plan.scalar_parts == 2) decompose(signed_digits_kernel<C, S, true>());
    else decompose(signed_digits_kernel<C, S>());
  } else {
    decompose(signed_digits_kernel<C, S>());
  }
  // Split scalars: `points` holds the points and then their images (split_points.hpp).
  record_bucket_grouping<C>(device, sequence, buffers.digits, buffers.bucket_counts, buffers.bucket_ends,
                            buffers.entries, first_point, count, plan.scalar_parts, first_window - part_first,
                            windows, plan.fixed_base ? plan.points : 0, plan.scalar_parts == 2 ? plan.points : 0);
  XyzzSumBuffers<C> sums{buffers.bucket_ends, set, buffers.partial_sums};
  record_bucket_accumulation<C>(sequence, points, role.first_of_set ? BucketWrite::Store : BucketWrite::Add,
                                buffers.entries, sums, buffers.run_buckets, count * plan.scalar_parts * windows,
                                bucket_count, plan.run_length, plan.accumulation_workgroup);
  // Each MSM's window sums have their own place, as Horner's rule runs once for all of them.
  if (role.last_of_set)
    record_bucket_reduction<C>(sequence, plan, sums, kept.window_sums,
                               msm * plan.summed_windows() + (plan.fixed_base ? 0 : first_window), bucket_windows);
  if (role.last && msm + 1 == plan.msms)
    record_window_combination<C>(sequence, plan, kept.window_sums, kept.results);
}

// Records every batch of MSM `msm`: its batches of windows, each over its batches of points.
// `parts` holds the points: one buffer, or a table's parts of plan.windows_per_part windows.
template <ShortWeierstrass C, MsmScalarForm<C> S>
void record_msm(Device& device, Sequence& sequence, const MsmPlan& plan, const MsmResultBuffers<C>& kept,
                std::span<const DeviceBuffer<Affine<C>>> parts, const DeviceBuffer<S>& scalars,
                std::uint32_t msm) {
  const std::uint64_t set_points = MsmBatchBuffers<C>::xyzz_count(plan, "buckets");
  DeviceBuffer<Xyzz<C>> set;
  for (std::uint32_t part = 0, part_first = 0; part_first < plan.windows; ++part, part_first += plan.windows_per_part) {
    const std::uint32_t part_end = std::min(plan.windows, part_first + plan.windows_per_part);
    for (std::uint32_t first = part_first; first < part_end; first += plan.windows_per_batch) {
      const std::uint32_t windows = std::min(plan.windows_per_batch, part_end - first);
      for (std::uint64_t point = 0; point < plan.points; point += plan.points_per_batch) {
        const std::uint64_t count = std::min(plan.points_per_batch, plan.points - point);
        const bool first_batch = first == 0 && point == 0, last_batch = first + windows == plan.windows &&
                                                                          point + count == plan.points;
        // A set: every batch over a table, a batch of windows' batches of points without.
        MsmBatchRole role{.first_of_set = plan.fixed_base ? first_batch : point == 0,
                          .last_of_set = plan.fixed_base ? last_batch : point + count == plan.points,
                          .last = last_batch};
        // A set's buckets live from its first batch to its reduction: a transient of their own.
        if (role.first_of_set) set = sequence.transient<Xyzz<C>>(set_points, "msm buckets");
        record_msm_batch<C, S>(device, sequence, plan, kept, set, role, parts[part], part_first, scalars, msm,
                               first, windows, point, count);
      }
    }
  }
}

// Records `msms` MSMs (scalar vectors) of the plan, after the points' images where the
// scalars are split, which every MSM reads (the sequence keeps them until it finishes).
template <ShortWeierstrass C, MsmScalarForm<C> S>
void record_msms(Device& device, Sequence& sequence, const MsmPlan& plan, const MsmResultBuffers<C>& kept,
                 std::span<const DeviceBuffer<Affine<C>>> parts, const DeviceBuffer<S>& scalars, std::uint32_t msms) {
  DeviceBuffer<Affine<C>> split;
  if constexpr (HasEndomorphism<C>) {
    if (plan.scalar_parts == 2) {
      split = sequence.transient<Affine<C>>(2 * plan.points, "msm split points");
      record_split_points<C>(sequence, parts[0], split, plan.points);
      parts = std::span(&split, 1);
    }
  }
  for (std::uint32_t msm = 0; msm < msms; ++msm) record_msm<C, S>(device, sequence, plan, kept, parts, scalars, msm);
}

// `msms` MSMs of the plan's points: `parts` holds them, or their table of window multiples
// where plan.fixed_base.
template <ShortWeierstrass C, MsmScalarForm<C> S>
MsmBatchResult<C> run_msms(Device& device, const MsmPlan& plan, std::span<const DeviceBuffer<Affine<C>>> parts,
                           const DeviceBuffer<S>& scalars, std::uint32_t msms, const MsmOptions& options) {
  // Every kernel below is traced (or found in its cache) with the device's field products.
  field::ProductLimbsScope limbs(
      field::product_limbs_for(device.info(), field::FieldConstants<typename C::Base>::limbs, options.product_limbs));
  MsmBatchResult<C> result{{}, plan.window_bits, plan.batches, 0, scalars.bytes()};
  for (const DeviceBuffer<Affine<C>>& part : parts) result.input_device_bytes += part.bytes();
  MsmResultBuffers<C> buffers(device, plan);
  // Every batch of every MSM in one submission: no host round trip between batches, and the
  // planner places each batch's transients (and the scan's) where the previous batch's were.
  auto sequence = device.sequence();
  if (options.workspace) sequence.use_workspace(*options.workspace);
  record_msms<C, S>(device, sequence, plan, buffers, parts, scalars, msms);
  to_affine(device, sequence, buffers.results, buffers.affine_results);
  sequence.run_and_wait();
  // What the MSM really held besides its inputs: the planned scratch and the kept buffers.
  result.peak_device_bytes = sequence.memory_plan().scratch_bytes + buffers.window_sums.bytes() +
                             buffers.results.bytes() + buffers.affine_results.bytes();
  result.points = device.download(buffers.affine_results);
  return result;
}

}  // namespace detail

// The plan msm() would follow for n points (and msm_batch() for `msms` scalar vectors):
// window size, batches and the temporaries' bytes, without running anything.
template <ShortWeierstrass C>
MsmPlan msm_plan(const Device& device, std::uint64_t n, const MsmOptions& options = {}, std::uint32_t msms = 1) {
  return plan_msm<C>(device.info(), std::max<std::uint64_t>(n, 1), msms, options);
}

// The plan msm() and msm_batch() follow over `table`.
template <ShortWeierstrass C>
MsmPlan msm_plan(const Device& device, const MsmTable<C>& table, MsmOptions options = {}, std::uint32_t msms = 1) {
  options.window_bits = table.window_bits;
  return plan_msm<C>(device.info(), std::max<std::uint64_t>(table.points, 1), msms, options,
                     std::max(table.windows_per_part, 1u));
}

// Several MSMs over the same n points: scalar vector v is scalars[v n .. v n + n), and
// points[v] of the result is its sum. The temporaries serve each vector in turn.
template <ShortWeierstrass C, MsmScalarForm<C> S>
MsmBatchResult<C> msm_batch(Device& device, const DeviceBuffer<Affine<C>>& points,
                            const DeviceBuffer<S>& scalars, const MsmOptions& options = {}) {
  const std::string what = std::string(C::name) + " msm_batch: ";
  if (points.size() == 0) throw std::invalid_argument(what + "no points: the number of scalar vectors is unknown");
  if (scalars.size() % points.size() != 0)
    throw std::invalid_argument(what + std::to_string(scalars.size()) +
                                " scalars are not a whole number of vectors of " + std::to_string(points.size()));
  const std::uint32_t msms = std::uint32_t(scalars.size() / points.size());
  return detail::run_msms<C, S>(device, plan_msm<C>(device.info(), points.size(), msms, options),
                                std::span(&points, 1), scalars, msms, options);
}

// sum_i scalars[i] points[i].
template <ShortWeierstrass C, MsmScalarForm<C> S>
MsmResult<C> msm(Device& device, const DeviceBuffer<Affine<C>>& points, const DeviceBuffer<S>& scalars,
                 const MsmOptions& options = {}) {
  if (points.size() != scalars.size())
    throw std::invalid_argument(std::string(C::name) + " msm: " + std::to_string(points.size()) + " points but " +
                                std::to_string(scalars.size()) + " scalars");
  if (points.size() == 0)  // the empty sum: nothing to plan or allocate
    return {Affine<C>::infinity(), options.window_bits ? options.window_bits : msm_window_bits<C>(1), 0, 0, 0};
  MsmBatchResult<C> batch = msm_batch<C, S>(device, points, scalars, options);
  return {batch.points[0], batch.window_bits, batch.batches, batch.peak_device_bytes, batch.input_device_bytes};
}

// The same sums over a table of the points' window multiples (msm_table.hpp): the windows
// share one set of buckets and need no Horner's rule. The table fixes the window size:
// options.window_bits is 0 or the table's.
template <ShortWeierstrass C, MsmScalarForm<C> S>
MsmBatchResult<C> msm_batch(Device& device, const MsmTable<C>& table, const DeviceBuffer<S>& scalars,
                            MsmOptions options = {}) {
  const std::string what = std::string(C::name) + " msm over a table: ";
  if (table.points == 0) throw std::invalid_argument(what + "the table is empty (made by msm_table?)");
  if (options.window_bits != 0 && options.window_bits != table.window_bits)
    throw std::invalid_argument(what + "window_bits " + std::to_string(options.window_bits) +
                                ", but the table holds windows of " + std::to_string(table.window_bits) + " bits");
  if (scalars.size() == 0 || scalars.size() % table.points != 0)
    throw std::invalid_argument(what + std::to_string(scalars.size()) +
                                " scalars are not a whole, non-zero number of vectors of the table's " +
                                std::to_string(table.points) + " points");
  options.window_bits = table.window_bits;
  const std::uint32_t msms = std::uint32_t(scalars.size() / table.points);
  MsmPlan plan = plan_msm<C>(device.info(), table.points, msms, options, table.windows_per_part);
  return detail::run_msms<C, S>(device, plan, std::span(table.parts), scalars, msms, options);
}

template <ShortWeierstrass C, MsmScalarForm<C> S>
MsmResult<C> msm(Device& device, const MsmTable<C>& table, const DeviceBuffer<S>& scalars,
                 const MsmOptions& options = {}) {
  if (table.points != 0 && scalars.size() != table.points)
    throw std::invalid_argument(std::string(C::name) + " msm over a table: " + std::to_string(table.points) +
                                " points but " + std::to_string(scalars.size()) + " scalars");
  MsmBatchResult<C> batch = msm_batch<C, S>(device, table, scalars, options);
  return {batch.points[0], batch.window_bits, batch.batches, batch.peak_device_bytes, batch.input_device_bytes};
}

}  // namespace sprig::curve
