// The shape of an MSM and its device memory, decided on the host before anything runs: the
// window size, how many windows one batch processes, and every temporary buffer with its
// size and the stages that use it. The budget bounds the buffers' sum; msm() then makes a
// batch's buffers transients of its sequence, which the memory planner places in less
// (docs/msm.md, "Memory plan").
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/runtime/backend.hpp"
#include "sprig/runtime/workspace.hpp"
#include "sprig/stdlib/curve/endomorphism.hpp"
#include "sprig/stdlib/curve/host_point.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/decoupled_lookback.hpp"
#include "sprig/stdlib/field/product_limbs.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::curve {

// Whether an MSM splits its scalars by the curve's endomorphism (MsmOptions::endomorphism).
enum class Endomorphism {
  Auto,  // where the split was measured faster and takes little more memory (msm_split_pays)
  On,    // wherever the curve, the budget and the bindings allow
  Off,
};

struct MsmOptions {
  // Bits per window, c (2 to 24); 0: chosen from n (msm_window_bits).
  std::uint32_t window_bits = 0;
  // Device memory the MSM may allocate besides its inputs, in bytes; 0: no limit. Windows
  // are processed in batches to stay within it.
  std::uint64_t memory_budget = 0;
  // Tuning: grouped entries one invocation of the accumulation sums (1 to 1024); 0: chosen
  // from the batch (msm_run_length: 64, or 128 for batches of 2^24 entries and more).
  // Shorter runs mean more invocations, more partial sums to combine and store.
  std::uint32_t run_length = 0;
  // Tuning: invocations per workgroup of the accumulation (a power of two from 32 to the
  // device's limit); 0: chosen from the batch (msm_accumulation_workgroup).
  std::uint32_t accumulation_workgroup = 0;
  // Tuning: buckets one invocation of the reduction's first walk sums (a power of two, 1 to
  // 1024); 0: chosen from the batch (msm_segment_length). Shorter segments mean more
  // invocations and tree levels.
  std::uint32_t segment_length = 0;
  // The field products' limbs: Auto takes what field::product_limbs_for picks (29-bit limbs
  // in 64-bit sums on devices with Int64, three times the 32-bit product's speed on an H100).
  field::ProductLimbs product_limbs = field::ProductLimbs::Auto;
  // Tuning: windows one batch takes at most; 0: about msm_batch_entries entries (16
  // windows of the points at least). The budget may leave room for fewer.
  std::uint32_t windows_per_batch = 0;
  // Scratch kept from call to call: MSMs given the same workspace place their temporaries in
  // its memory, which grows to the largest plan it has served and is then reused, so a
  // prover's repeated MSMs allocate nothing after the first. The workspace keeps that memory
  // until it is released, whatever a later call's budget; without one, each call allocates
  // its temporaries and frees them on return.
  std::optional<Workspace> workspace = std::nullopt;
  // Whether to split each scalar by the curve's endomorphism (endomorphism.hpp) into two of
  // about half its bits, over the points and their images (beta x, y): twice the points in
  // half the windows, so half the buckets to reduce and half of Horner's doublings, for a
  // buffer of 2n points (the points and their images) and the same additions. Where the
  // curve has no endomorphism, over a table of window multiples (which has no Horner's rule
  // and one reduction), or where that buffer does not fit the budget or one binding, the MSM
  // runs without it: MsmPlan::scalar_parts says which.
  Endomorphism endomorphism = Endomorphism::Auto;
};

// The stages, in the order one batch of windows runs them.
enum class MsmStage : std::uint8_t { Decompose, Scan, Scatter, Accumulate, Combine, Reduce, WindowSum, Horner };

namespace detail {

// Entries (one point in one window) that one invocation of the accumulation sums, unless
// MsmOptions::run_length says otherwise: 64, or 128 where a batch holds 2^24 entries or
// more, which still leaves 2^17 runs to fill the GPU. On an H100, runs of 128 took 2^24
// points from 336 to 322 ms and 2^22 from 116 to 113, but 2^16 to 2^21 points 10 to 20%
// slower. A batch of exactly 2^24 (2^20 points in 16 windows) took 9.36-9.54 ms in runs of
// 128 against 9.54-9.97 in runs of 64 on an H200 once the runs' sums were combined per
// run (13.7-13.9 against 13.2-13.3 before; docs/msm.md).
inline constexpr std::uint32_t msm_default_run_length = 64;
inline std::uint32_t msm_run_length(std::uint64_t batch_entries) {
  return batch_entries >= (std::uint64_t(1) << 24) ? 2 * msm_default_run_length : msm_default_run_length;
}
// Invocations per workgroup of the accumulation, unless MsmOptions::accumulation_workgroup
// says otherwise: 512 for a batch of 2^16 runs or more over the points themselves (2^18 runs
// or more over a table of window multiples) of a curve whose base field has 8 words at most
// (BN254), where the device allows it; else 64.
// NVIDIA's driver gives each invocation at most 65,536 registers over the workgroup's
// invocations, so a workgroup of 512 holds BN254's accumulation at 128 registers instead of
// the 168 it takes by itself: 16 subgroups a multiprocessor instead of 12, which the mixed
// additions' latency wants more than the spilled registers cost. On an H200 the
// accumulation of 2^20 points took 5.30 ms instead of 5.76 and of 2^24 67.8 instead of 72.6;
// whole MSMs of 2^18 to 2^24 points ran 1.03-1.08x faster. It lost elsewhere: below 2^16
// runs (2^17 points and fewer) it leaves multiprocessors idle (2^17 points 6.11 ms instead
// of 4.89); BLS12-381 (12 words) squeezed into 128 registers ran 2^19 points in 15.2 ms
// instead of 13.0. Over a table, whose point loads spread over the whole table, it lost up
// to 2^21 points (2^17.7 runs a batch: 15.3-15.4 ms instead of 14.6-14.7) and won from 2^22
// (2^18.6 runs and more; 2^24 over 4 parts 95.1-95.3 instead of 101.7). Workgroups of 640
// to 1024 (96 to 64 registers) and of 448 (128 registers, one workgroup a multiprocessor)
// were slower than 64 (docs/msm.md).
inline constexpr std::uint32_t msm_large_accumulation_workgroup = 512;
inline constexpr std::uint64_t msm_large_workgroup_runs = std::uint64_t(1) << 16;
inline constexpr std::uint64_t msm_large_workgroup_table_runs = std::uint64_t(1) << 18;
inline constexpr std::size_t msm_large_workgroup_field_words = 8;
inline std::uint32_t msm_accumulation_workgroup(std::uint64_t batch_runs, std::size_t base_field_words,
                                                bool over_table, const DeviceInfo& device) {
  const std::uint64_t fewest_runs = over_table ? msm_large_workgroup_table_runs : msm_large_workgroup_runs;
  const bool large = batch_runs >= fewest_runs && base_field_words <= msm_large_workgroup_field_words &&
                     device.max_workgroup_invocations >= msm_large_accumulation_workgroup;
  return large ? msm_large_accumulation_workgroup : msm_workgroup_size;
}
// A batch takes windows until it holds about this many entries, or 16 windows of points
// where that is more. Every batch ends in its reduction, a chain of small launches that
// leaves a large GPU mostly idle (its driver runs launches one after another), so fewer
// batches are faster: on an H100, 16 windows a batch instead of 4 took 2^17 points from
// 15.6 to 13.1 ms, 2^20 from 34.9 to 25.1 and 2^22 from 88.9 to 76.7, and 2^21 entries
// instead of 2^20 put 2^16 points in one batch (docs/msm.md), while at 2^17 points the whole
// MSM stays within 34 MiB (all 20 windows in one batch: 10.4 ms, 37 MiB).
inline constexpr std::uint64_t msm_batch_entries = std::uint64_t(1) << 21;
inline constexpr std::uint64_t msm_batch_windows_of_points = 16;
// The windows a batch of n points takes by the rule above, before any budget.
inline std::uint64_t msm_batch_windows(std::uint64_t n) {
  n = std::max<std::uint64_t>(n, 1);
  return std::max(msm_batch_entries, msm_batch_windows_of_points * n) / n;  // at least 16
}
// A budget too small for one window of all points splits the points into batches, but not
// below this many: under it a batch's buckets (2^(c-1) points of 128 bytes and more) outweigh
// its digits and entries (8 bytes a point), and more batches would save little memory.
inline constexpr std::uint64_t msm_fewest_batch_points = 1024;
// Buckets per segment of the reduction's first walk: the shortest that keeps a batch's
// segments within about 2^16 invocations, and at least 4 (fewer where a window has fewer).
// Each invocation's walk is a chain of dependent additions, so the walk is latency-bound
// until the GPU is full. On an H100, segments of 4 took an MSM of 2^20 points from 72.9 to
// 64.0 ms (four windows of 2^15 buckets a batch) and 2^16 points from 32.8 to 29.7, while at
// 2^24 (four windows of 2^19 buckets) the 32 this picks stayed the fastest (docs/msm.md).
inline std::uint32_t msm_segment_length(std::uint32_t buckets, std::uint32_t batch_windows) {
  const std::uint64_t wanted = (std::uint64_t(buckets) * batch_windows + 65535) >> 16;
  return std::min(buckets, std::max(4u, std::bit_ceil(std::uint32_t(std::min<std::uint64_t>(wanted, 1024)))));
}
// The sign bit of a sorted entry (the point index is below it).
inline constexpr std::uint32_t msm_sign_bit = 0x80000000u;
// The digit of a (point, window) whose scalar digit is 0: in no bucket.
inline constexpr std::uint32_t msm_no_bucket = 0xffffffffu;

// Bits of the largest scalar (r - 1), or of the largest half of a split one: windows must
// cover one bit more (the last Booth digit takes no borrow from above).
template <ShortWeierstrass C>
constexpr std::uint32_t scalar_bits(std::uint32_t scalar_parts = 1) {
  if constexpr (HasEndomorphism<C>)
    if (scalar_parts == 2) return EndomorphismConstants<C>::split_bits;
  return std::uint32_t(field::detail::bit_length(field::FieldConstants<typename C::Scalar>::modulus));
}

inline std::uint32_t window_count(std::uint32_t bits, std::uint32_t c) { return (bits + 1 + c - 1) / c; }

}  // namespace detail

// The default window size. The work counted in mixed additions is windows * (n + 2.8 *
// 2^(c-1)): each window adds every point once into one of its 2^(c-1) buckets, and the
// reduction spends two full additions (1.4 mixed ones each, by product count) per bucket.
// Of the c in 2..20 within 10% of the least work, the one whose windows fill the fewest
// batches is taken (then the least work): every batch ends in its reduction, a chain of
// small launches that a large GPU runs mostly idle. On an H200, c = 16 instead of 15 (16
// windows in one batch instead of 17 in two, for 8% and 2% more additions) took 2^18 points
// from 9.0 to 7.2 ms and 2^19 from 11.2 to 9.1 (docs/msm.md). Split scalars (scalar_parts
// 2) count as 2n points of the halves' bits.
template <ShortWeierstrass C>
std::uint32_t msm_window_bits(std::uint64_t n, std::uint32_t scalar_parts = 1) {
  n *= scalar_parts;
  const std::uint64_t batch_windows = detail::msm_batch_windows(n);
  auto windows = [&](std::uint32_t c) { return detail::window_count(detail::scalar_bits<C>(scalar_parts), c); };
  auto work = [&](std::uint32_t c) { return double(windows(c)) * (double(n) + 2.8 * double(std::uint64_t(1) << (c - 1))); };
  auto batches = [&](std::uint32_t c) { return (windows(c) + batch_windows - 1) / batch_windows; };
  std::uint32_t least = 2;
  for (std::uint32_t c = 3; c <= 20; ++c)
    if (work(c) < work(least)) least = c;
  std::uint32_t best = least;
  for (std::uint32_t c = 2; c <= 20; ++c)
    if (work(c) <= 1.1 * work(least) &&
        (batches(c) < batches(best) || (batches(c) == batches(best) && work(c) < work(best))))
      best = c;
  return best;
}

// One temporary buffer of the plan.
struct MsmBuffer {
  std::string name;
  std::uint64_t bytes = 0;
  MsmStage first_use{}, last_use{};
};

struct MsmPlan {
  std::uint64_t points = 0;         // n
  std::uint32_t msms = 1;           // scalar vectors over the same points
  std::uint32_t window_bits = 0;    // c
  // 2 where the scalars are split by the curve's endomorphism (MsmOptions::endomorphism):
  // each window then has 2n digits, the points' and their images'. Else 1.
  std::uint32_t scalar_parts = 1;
  std::uint32_t windows = 0;        // W: c W covers the scalar's (or its halves') bits and one more
  std::uint32_t buckets = 0;        // per window, 2^(c-1): digit magnitudes 1 .. 2^(c-1)
  std::uint32_t segment_length = 0;  // buckets per reduction segment, m (a power of two)
  std::uint32_t run_length = 0;     // entries per invocation of the accumulation
  std::uint32_t accumulation_workgroup = 0;  // invocations (runs) per workgroup of the accumulation
  std::uint32_t windows_per_batch = 0;
  // Points a batch takes: all n, unless the budget leaves room for fewer than one window of
  // all of them. Each window's sum is then the sum of its point batches' sums.
  std::uint64_t points_per_batch = 0;
  std::uint32_t batches = 0;  // per MSM: batches of windows times batches of points
  // Over a table of the points' window multiples (msm_table.hpp): every window's digits
  // go into one set of buckets, whose sum is the MSM's, and Horner's rule has one window.
  bool fixed_base = false;
  // Windows in one binding of points: W, or a table part's. No batch spans two parts.
  std::uint32_t windows_per_part = 0;
  // A set of buckets (a batch of windows over every batch of points; one set over a table)
  // is filled by its batches in turn, the first storing its sums, the later ones adding
  // theirs inside the accumulation, and reduced once, after its last batch.
  std::vector<MsmBuffer> buffers;

  std::uint32_t segments() const { return buckets / segment_length; }
  // Sets of buckets a batch of `batch_windows` windows fills, and window sums in all.
  std::uint32_t bucket_windows(std::uint32_t batch_windows) const { return fixed_base ? 1 : batch_windows; }
  std::uint32_t summed_windows() const { return fixed_base ? 1 : windows; }
  std::uint64_t peak_bytes() const {
    std::uint64_t sum = 0;
    for (const MsmBuffer& b : buffers) sum += b.bytes;
    return sum;
  }
  const MsmBuffer& largest() const {
    return *std::max_element(buffers.begin(), buffers.end(),
                             [](const MsmBuffer& a, const MsmBuffer& b) { return a.bytes < b.bytes; });
  }
  const MsmBuffer& buffer(std::string_view name) const {
    for (const MsmBuffer& b : buffers)
      if (b.name == name) return b;
    throw std::logic_error("msm plan: no buffer " + std::string(name));
  }
};

namespace detail {

// The bucket-offset scan's own temporaries (stdlib scan) for `count` counters.
inline std::uint64_t scan_scratch_bytes(const DeviceInfo& device, std::uint64_t count) {
  if (sprig::detail::resolve_scan_mode(ScanMode::Auto, device) == ScanMode::DecoupledLookBack) {
    std::uint64_t tiles = sprig::detail::lookback_scan_shape<std::uint32_t>(ScanOptions{}, device).tiles_for(count);
    return sprig::detail::tile_status_words(tiles) * 8 + sprig::detail::tile_value_slots<std::uint32_t>(tiles) * 4;
  }
  return sprig::detail::scan_shape<std::uint32_t>(ScanOptions{}, device).tiles_for(count) * 4;
}

// The runs of `run_length` entries that cover `entry_bound` entries.
inline std::uint64_t msm_runs(std::uint64_t entry_bound, std::uint32_t run_length) {
  return (entry_bound + run_length - 1) / run_length;
}

// The buffers of a plan whose batches hold `batch_windows` windows of `batch_points` points.
template <ShortWeierstrass C>
std::vector<MsmBuffer> msm_buffers(const DeviceInfo& device, const MsmPlan& plan, std::uint32_t batch_windows,
                                   std::uint64_t batch_points) {
  const std::uint64_t n = batch_points, xyzz = sizeof(Xyzz<C>);
  const std::uint64_t entries = n * plan.scalar_parts * batch_windows;
  const std::uint64_t bucket_slots = std::uint64_t(plan.buckets) * plan.bucket_windows(batch_windows);
  const std::uint64_t runs = msm_runs(entries, plan.run_length);
  const std::uint64_t segment_sums = 2 * std::uint64_t(plan.segments()) * plan.bucket_windows(batch_windows);
  using S = MsmStage;
  std::vector<MsmBuffer> buffers{
      {"digits", entries * 4, S::Decompose, S::Scatter},
      {"entries", entries * 4, S::Scatter, S::Accumulate},
      {"bucket_counts", bucket_slots * 4, S::Decompose, S::Scan},
      {"bucket_ends", bucket_slots * 4, S::Scan, S::Combine},
      {"scan_scratch", scan_scratch_bytes(device, bucket_slots), S::Scan, S::Scan},
      {"buckets", bucket_slots * xyzz, S::Accumulate, S::Reduce},
      // The runs' carried partial sums, then (the lifetimes do not overlap) the reduction's
      // segment sums.
      {"partial_sums", std::max(runs, segment_sums) * xyzz, S::Accumulate, S::WindowSum},
      // The bucket each run starts inside, for the combination of the runs' sums.
      {"run_buckets", runs * 4, S::Accumulate, S::Accumulate},
      {"window_sums", std::uint64_t(plan.msms) * plan.summed_windows() * xyzz, S::WindowSum, S::Horner},
      {"results", std::uint64_t(plan.msms) * (xyzz + sizeof(Affine<C>)), S::Horner, S::Horner},
  };
  // Split scalars: every batch reads all n points and their n images from one binding.
  if (plan.scalar_parts == 2)
    buffers.push_back({"split_points", 2 * plan.points * sizeof(Affine<C>), S::Decompose, S::Accumulate});
  return buffers;
}

}  // namespace detail

namespace detail {

// Endomorphism::Auto splits the scalars of at most this many points: on an H200 the split
// was 1.1-1.4x faster from 2^10 to 2^19 points and 1.06x at 2^20, but mostly slower from
// 2^21, where its windows round up worse over 2^18 buckets and more (docs/msm.md).
inline constexpr std::uint64_t msm_split_largest_points = std::uint64_t(1) << 20;
// ... where the split plan's temporaries are at most this many times the unsplit plan's.
// Where the split halves the buckets its 2n points cost little (2^16 and 2^18 points: the
// same bytes), but where points outweigh buckets they cost up to 1.8x: 2^17 points would
// take 48 MiB instead of 32 and 2^20 points 353 instead of 243, for 1.4x and 1.06x the speed.
inline constexpr double msm_split_most_memory = 1.5;
inline bool msm_split_pays(const MsmPlan& split, const MsmPlan& unsplit) {
  return split.points <= msm_split_largest_points &&
         double(split.peak_bytes()) <= msm_split_most_memory * double(unsplit.peak_bytes());
}

// plan_msm's plan with `scalar_parts` parts a scalar (1, or 2 split by the endomorphism).
template <ShortWeierstrass C>
MsmPlan plan_msm_in_parts(const DeviceInfo& device, std::uint64_t n, std::uint32_t msms, const MsmOptions& options,
                          std::uint32_t table_part_windows, std::uint32_t scalar_parts) {
  const std::string what = std::string(C::name) + " msm: ";
  MsmPlan plan;
  plan.points = n;
  plan.msms = msms;
  plan.fixed_base = table_part_windows != 0;
  plan.scalar_parts = scalar_parts;
  plan.window_bits = options.window_bits ? options.window_bits : msm_window_bits<C>(n, scalar_parts);
  if (plan.window_bits < 2 || plan.window_bits > 24)
    throw std::invalid_argument(what + "window_bits must be 2 to 24, not " + std::to_string(plan.window_bits));
  if (n >= (std::uint64_t(1) << 30))
    throw std::invalid_argument(what + std::to_string(n) + " points: at most 2^30 - 1");
  plan.windows = detail::window_count(detail::scalar_bits<C>(scalar_parts), plan.window_bits);
  plan.buckets = 1u << (plan.window_bits - 1);
  if (options.segment_length > 1024 || (options.segment_length && !std::has_single_bit(options.segment_length)))
    throw std::invalid_argument(what + "segment_length must be a power of two from 1 to 1024, not " +
                                std::to_string(options.segment_length));
  if (options.run_length > 1024)
    throw std::invalid_argument(what + "run_length must be 1 to 1024, not " + std::to_string(options.run_length));
  if (options.accumulation_workgroup != 0 &&
      (!std::has_single_bit(options.accumulation_workgroup) || options.accumulation_workgroup < 32 ||
       options.accumulation_workgroup > device.max_workgroup_invocations))
    throw std::invalid_argument(what + "accumulation_workgroup must be a power of two from 32 to " +
                                std::to_string(device.max_workgroup_invocations) + " (the most " + device.name +
                                " runs in a workgroup), not " + std::to_string(options.accumulation_workgroup));

  auto fits = [&](std::uint32_t batch_windows, std::uint64_t batch_points, MsmBuffer* over) {
    std::vector<MsmBuffer> buffers = detail::msm_buffers<C>(device, plan, batch_windows, batch_points);
    MsmPlan trial = plan;
    trial.buffers = buffers;
    for (const MsmBuffer& b : buffers) {
      if (b.bytes > device.max_buffer_bytes) {
        if (over) *over = b;
        return false;
      }
    }
    if (options.memory_budget != 0 && trial.peak_bytes() > options.memory_budget) {
      if (over) *over = trial.largest();
      return false;
    }
    return true;
  };
  std::uint64_t wanted = detail::msm_batch_windows(n * scalar_parts);
  if (options.windows_per_batch) wanted = options.windows_per_batch;
  plan.windows_per_part = plan.fixed_base ? std::min(plan.windows, table_part_windows) : plan.windows;
  std::uint32_t batch_windows = std::uint32_t(std::min<std::uint64_t>(plan.windows_per_part, wanted));
  plan.segment_length = options.segment_length
                            ? std::min(plan.buckets, options.segment_length)
                            : detail::msm_segment_length(plan.buckets, plan.bucket_windows(batch_windows));
  plan.run_length =
      options.run_length ? options.run_length : detail::msm_run_length(std::uint64_t(batch_windows) * n * scalar_parts);
  // The most windows, then the most points, a batch may take.
  struct Shape {
    bool fits = false;
    std::uint32_t windows = 1;
    std::uint64_t points = 1, batches = 0;
  };
  const std::uint64_t fewest_points = std::min<std::uint64_t>(n, detail::msm_fewest_batch_points);
  Shape chosen{false, batch_windows, n};
  while (chosen.windows > 1 && !fits(chosen.windows, n, nullptr)) --chosen.windows;
  // One window of all points too much: batches of fewer points, halved down to the size
  // below which the buckets, not the points, make up most of a batch.
  while (chosen.points > fewest_points && !fits(1, chosen.points, nullptr))
    chosen.points = std::max(fewest_points, (chosen.points + 1) / 2);
  chosen.fits = fits(chosen.windows, chosen.points, nullptr);
  std::uint64_t window_batches = 0;
  for (std::uint32_t first = 0; first < plan.windows; first += plan.windows_per_part)
    window_batches += (std::min(plan.windows_per_part, plan.windows - first) + chosen.windows - 1) / chosen.windows;
  chosen.batches = window_batches * ((n + chosen.points - 1) / chosen.points);
  MsmBuffer over;
  if (!chosen.fits) {
    fits(chosen.windows, chosen.points, &over);
    MsmPlan trial = plan;
    trial.buffers = detail::msm_buffers<C>(device, plan, 1, chosen.points);
    std::string limit = over.bytes > device.max_buffer_bytes
                            ? "the buffer '" + over.name + "' needs " + std::to_string(over.bytes) +
                                  " bytes, above the " + std::to_string(device.max_buffer_bytes) + " bytes that " +
                                  device.name + " binds at once"
                            : "the budget allows " + std::to_string(options.memory_budget) +
                                  " bytes; the largest buffer is '" + trial.largest().name + "' (" +
                                  std::to_string(trial.largest().bytes) + " bytes)";
    throw std::invalid_argument(what + std::to_string(n) + " points in windows of " +
                                std::to_string(plan.window_bits) + " bits ask for " +
                                std::to_string(trial.peak_bytes()) + " bytes of temporaries with one window of " +
                                std::to_string(chosen.points) + " points per batch: " + limit);
  }
  plan.windows_per_batch = chosen.windows;
  plan.points_per_batch = chosen.points;
  plan.batches = std::uint32_t(chosen.batches);
  plan.accumulation_workgroup =
      options.accumulation_workgroup
          ? options.accumulation_workgroup
          : detail::msm_accumulation_workgroup(
                detail::msm_runs(std::uint64_t(chosen.windows) * chosen.points * scalar_parts, plan.run_length),
                field::FieldConstants<typename C::Base>::limbs, plan.fixed_base, device);
  plan.buffers = detail::msm_buffers<C>(device, plan, chosen.windows, chosen.points);
  return plan;
}

}  // namespace detail

// The plan for `n` points and `msms` scalar vectors (over a table of the points' window
// multiples in parts of `table_part_windows` windows, where that is not 0): the most windows
// per batch that the budget and the device's largest binding allow, up to about
// msm_batch_entries entries and a table part's windows. A budget (or binding) too
// small for one window per batch throws std::invalid_argument with the bytes asked for, the
// budget and the largest buffer. Split scalars (MsmOptions::endomorphism) are planned where
// the curve allows them, they fit and they are asked for (On) or pay (Auto: msm_split_pays),
// else the plan is the one without; a split plan for a curve whose beta and lambda do not go
// together throws std::logic_error (check_endomorphism_pairing).
template <ShortWeierstrass C>
MsmPlan plan_msm(const DeviceInfo& device, std::uint64_t n, std::uint32_t msms, const MsmOptions& options,
                 std::uint32_t table_part_windows = 0) {
  if constexpr (HasEndomorphism<C>) {
    if (options.endomorphism != Endomorphism::Off && table_part_windows == 0) {
      std::optional<MsmPlan> split, unsplit;
      try {
        split = detail::plan_msm_in_parts<C>(device, n, msms, options, table_part_windows, 2);
      } catch (const std::invalid_argument&) {
        // Too large for the budget or a binding with the images: the plan without them says
        // why, if it does not fit either.
      }
      if (split && options.endomorphism == Endomorphism::Auto) {
        try {
          unsplit = detail::plan_msm_in_parts<C>(device, n, msms, options, table_part_windows, 1);
        } catch (const std::invalid_argument&) {
          // Only the split plan fits.
        }
        if (unsplit && !detail::msm_split_pays(*split, *unsplit)) return *unsplit;
      }
      if (split) {
        check_endomorphism_pairing<C>();
        return *split;
      }
    }
  }
  return detail::plan_msm_in_parts<C>(device, n, msms, options, table_part_windows, 1);
}

}  // namespace sprig::curve
