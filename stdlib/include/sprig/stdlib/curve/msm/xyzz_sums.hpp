// The MSM's sums of XYZZ points — combining the runs' partial sums into buckets (stage c),
// the buckets' segment sums, their pairwise combination and the windows' sums (stage d) —
// as programs of one kernel. Drivers inline
// every call of a device function (Mesa's and NVIDIA's compilers both do), so a kernel
// costs compile time in proportion to its calls of the addition: each program here is a
// loop doing one addition (or one doubling) per step into one of three accumulators, with
// the operands chosen per step, so that the stages compile one copy of the addition
// instead of one per stage (docs/msm.md has the measurement).
//
// The accumulators are `sum`, `running` and `weighted`; a step adds `right` to one of them.
#pragma once

#include <array>
#include <string>

#include "sprig/stdlib/curve/msm/bucket_search.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/point_steps.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

// The programs, in the order a batch runs them.
enum class XyzzSums : std::uint32_t {
  // Per run r (count: runs) that starts inside a bucket begun in an earlier run f
  // (run_buckets[r], which the accumulation wrote): if r is f + 1 + 64 k, partial_sums[r] +=
  // the next 63 runs' partial sums, as far as the bucket goes. Arguments: the run length.
  RunChunks = 0,
  // Per run r (count: runs) that is the first, f + 1, of those its bucket b continues into:
  // buckets[b] += partial_sums[r] for every 64th run r of them, f + 1, f + 65, ..., which
  // RunChunks left holding the sums of their chunks. Per run rather than per bucket: most
  // buckets continue into no run, and a subgroup with any one that does pays for a whole
  // addition. Arguments: the run length.
  CombineRuns = 1,
  // Per (window, segment) (count: windows * segments): walking the segment's m buckets down,
  // running += bucket, then weighted += running; then running doubled log2(m) times;
  // partial_sums[2 i] = weighted (A), [2 i + 1] = running (S = m T). Arguments: buckets per
  // window, m, log2(m).
  Segments = 2,
  // Per (window, pair of adjacent groups of segments at `level`) (count: windows * groups
  // / 2): sum (the lower A) += upper A, sum += upper S, running (the lower S) += upper S,
  // then doubled; written over the lower group. Arguments: segments per window, level. (The
  // levels of few pairs run over teams of lanes: bucket_tree_teams.hpp.)
  CombineSegments = 3,
};

// Runs of a bucket that one invocation of RunChunks sums.
inline constexpr std::uint32_t msm_run_chunk = 64;

// run_buckets[r] of a run that starts at a bucket's first entry (or past the last entry).
inline constexpr std::uint32_t no_run_bucket = 0xffffffffu;

template <ShortWeierstrass C>
const auto& xyzz_sums_kernel() {
  using X = Xyzz<C>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_xyzz_sums",
        [](ReadBuffer<std::uint32_t> ends, ReadBuffer<std::uint32_t> run_buckets, Buffer<X> buckets,
           Buffer<X> partial_sums, UInt program, UInt count, UInt a, UInt b, UInt c) {
          UInt i = msm_invocation();
          if_(i < count, [&] {
            Expr<X> infinity = xyzz_infinity_point<C>(i.node()->loc);
            // Indexed by a step's target rather than chosen by selects: a select reads all
            // three, so each step kept 96 words of accumulators live besides the addition's.
            Var<std::array<X, 3>> accumulators;
            const auto sum = accumulators[0u], running = accumulators[1u], weighted = accumulators[2u];
            sum = infinity;
            running = infinity;
            weighted = infinity;
            Var<std::uint32_t> steps = 0u;
            // CombineRuns: the bucket run i continues, and the run it started in.
            Var<std::uint32_t> bucket = 0u, first_run = 0u;
            // Segments: the top bucket of segment i; CombineSegments: the lower and upper
            // groups' A (their S follows).
            Var<std::uint32_t> top = 0u, lower = 0u, upper = 0u;
            UInt program_is = program;
            // The run programs: run i starts inside bucket run_buckets[i], from run first_run
            // to run last_run, or at a bucket's start (no_run_bucket).
            auto continued_bucket = [&](auto&& with) {
              UInt b_i = run_buckets[i];
              if_(b_i != no_run_bucket, [&] {
                with(b_i, bucket_start(ends, b_i) / a, (UInt(ends[b_i]) - 1u) / a);
              });
            };
            if_(program_is == std::uint32_t(XyzzSums::CombineRuns), [&] {
              continued_bucket([&](UInt b_i, UInt first, UInt last_run) {
                if_(i == first + 1u, [&] {
                  bucket = b_i;
                  first_run = first;
                  steps = (last_run - first + msm_run_chunk - 1u) / msm_run_chunk;
                  sum = buckets[b_i].load();
                });
              });
            }).else_if_(program_is == std::uint32_t(XyzzSums::Segments), [&] {
              UInt segments = a / b;
              top = (i / segments) * a + (i % segments + 1u) * b - 1u;
              steps = 2u * b + c;
            }).else_if_(program_is == std::uint32_t(XyzzSums::CombineSegments), [&] {
              UInt pairs = a >> (b + 1u), window = i / pairs, pair = i % pairs;
              lower = 2u * (window * a + (2u * pair << b));
              upper = lower.load() + (2u << b);
              steps = 4u;
              sum = partial_sums[lower.load()].load();
              running = partial_sums[lower.load() + 1u].load();
              weighted = partial_sums[upper.load() + 1u].load();
            }).else_if_(program_is == std::uint32_t(XyzzSums::RunChunks), [&] {
              continued_bucket([&](UInt, UInt first, UInt last_run) {
                // i is the first run of a chunk.
                if_((i - first - 1u) % msm_run_chunk == 0u, [&] {
                  steps = min(last_run - i, UInt(msm_run_chunk - 1u));
                  sum = partial_sums[i].load();
                });
              });
            });

            // Each step: `target` 0 (sum), 1 (running) or 2 (weighted) += right, or, where
            // `doubling`, target = 2 target.
            for_(0u, steps.load(), [&](UInt step) {
              Var<std::uint32_t> target = 0u;
              Var<X> right = infinity;
              Var<bool> doubling = false;
              if_(program_is == std::uint32_t(XyzzSums::CombineRuns), [&] {
                right = partial_sums[first_run.load() + 1u + step * msm_run_chunk].load();
              }).else_if_(program_is == std::uint32_t(XyzzSums::RunChunks), [&] {
                right = partial_sums[i + 1u + step].load();
              }).else_if_(program_is == std::uint32_t(XyzzSums::Segments), [&] {
                if_(step < 2u * b, [&] {
                  Bool weighting = (step & 1u) != 0u;
                  target = select(weighting, UInt(2u), UInt(1u));
                  right = select_point<C>(weighting, running.load(), buckets[top.load() - (step >> 1u)].load());
                }).else_([&] {
                  target = 1u;
                  doubling = true;
                });
              }).else_if_(program_is == std::uint32_t(XyzzSums::CombineSegments), [&] {
                // Steps: sum += upper A, sum += upper S, running += upper S, running doubled.
                target = select(step < 2u, UInt(0u), UInt(1u));
                doubling = step == 3u;
                if_(step == 0u, [&] { right = partial_sums[upper.load()].load(); }).else_([&] {
                  right = weighted.load();
                });
              });
              UInt t = target.load();
              Expr<X> left = accumulators[t].load();
              // Doublings (the tree's products by powers of two) call the doubling
              // itself: a second copy of its code in the kernel, against an addition that
              // would detect equal points and double anyway, at twice the products.
              Var<X> result = infinity;
              if_(doubling.load(), [&] { result = double_point<C>(left); }).else_([&] {
                result = add_points<C>(left, right.load());
              });
              accumulators[t] = result.load();
            });

            if_(program_is == std::uint32_t(XyzzSums::CombineRuns), [&] {
              if_(steps.load() > 0u, [&] { buckets[bucket.load()] = sum.load(); });
            }).else_if_(program_is == std::uint32_t(XyzzSums::RunChunks), [&] {
              if_(steps.load() > 0u, [&] { partial_sums[i] = sum.load(); });
            }).else_if_(program_is == std::uint32_t(XyzzSums::Segments), [&] {
              partial_sums[2u * i] = weighted.load();
              partial_sums[2u * i + 1u] = running.load();
            }).else_if_(program_is == std::uint32_t(XyzzSums::CombineSegments), [&] {
              partial_sums[lower.load()] = sum.load();
              partial_sums[lower.load() + 1u] = running.load();
            });
          });
        },
        workgroup(msm_workgroup_size)
            .names("ends", "run_buckets", "buckets", "partial_sums", "program", "count", "a", "b", "c"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>("msm_xyzz_sums"), trace);
}

// The buffers every program binds (each uses some of them). Only the run programs read
// run_buckets; the others bind the ends in its place.
template <ShortWeierstrass C>
struct XyzzSumBuffers {
  const DeviceBuffer<std::uint32_t>& ends;
  const DeviceBuffer<Xyzz<C>>& buckets;
  const DeviceBuffer<Xyzz<C>>& partial_sums;
  const DeviceBuffer<std::uint32_t>* run_buckets = nullptr;
};

template <ShortWeierstrass C>
void record_xyzz_sums(Sequence& sequence, const XyzzSumBuffers<C>& buffers, XyzzSums program, std::uint64_t count,
                      std::uint32_t a = 0, std::uint32_t b = 0, std::uint32_t c = 0) {
  const DeviceBuffer<std::uint32_t>& run_buckets = buffers.run_buckets ? *buffers.run_buckets : buffers.ends;
  sequence.run(xyzz_sums_kernel<C>(), msm_grid(count), buffers.ends, run_buckets, buffers.buckets,
               buffers.partial_sums, std::uint32_t(program), std::uint32_t(count), a, b, c);
}

}  // namespace sprig::curve::detail
