// MSM stage (c): the buckets' sums. The grouped entries are cut into runs (of 64 entries
// unless MsmOptions::run_length says otherwise); one invocation sums one run with mixed
// additions (XYZZ + affine, the negated point for a negative digit), however the entries
// fall into buckets, so a bucket holding every point costs no one invocation more than a
// run. A run meets each bucket in one piece:
//   * a bucket that starts in the run: its sum within the run goes to buckets[b], which no
//     other run writes (every bucket starts in one run);
//   * the bucket the run starts in the middle of: its sum goes to partial_sums[run], and
//     the bucket's index to run_buckets[run] (no_run_bucket where the run starts a bucket).
// Programs of the XYZZ sums kernel (xyzz_sums.hpp) then add, for each bucket spanning runs,
// the partial sums of the runs it continues into: first each 64th of those runs sums the
// next 63, then the first of them adds those chunk sums to the bucket (a launch over the
// runs each), so a bucket of all n points of a window costs walks of 63 and
// n / (64 * run length) additions.
//
// The first batch of a set of buckets stores its sums into the set; a later batch of the same
// set (the set's windows over more points, msm.hpp) adds its sums to what is there: a bucket
// that starts in a run sums on from the bucket's stored value instead of from infinity, so
// adding costs a load per bucket and no full addition, and the set is reduced once however
// many batches of points fill it and needs no second set.
#pragma once

#include <string>
#include <type_traits>

#include "sprig/stdlib/curve/msm/bucket_search.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/point_steps.hpp"
#include "sprig/stdlib/curve/msm/xyzz_sums.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

// Where its bucket sums go: into the set, or added to what an earlier batch left there.
enum class BucketWrite { Store, Add };

// One kernel per workgroup size (MsmPlan::accumulation_workgroup): the size also bounds the
// registers NVIDIA's driver gives each invocation (65,536 a multiprocessor over the
// workgroup's invocations), which is what makes workgroups of 512 faster there. Storing,
// the buckets are bound write-only.
template <ShortWeierstrass C, BucketWrite Write>
const auto& bucket_accumulation_kernel(std::uint32_t workgroup_size) {
  using A = Affine<C>;
  using X = Xyzz<C>;
  using Buckets = std::conditional_t<Write == BucketWrite::Store, WriteBuffer<X>, Buffer<X>>;
  auto trace = [workgroup_size] {
    return kernel(
        std::string(C::name) + "_msm_bucket_accumulation",
        [workgroup_size](ReadBuffer<A> points, ReadBuffer<std::uint32_t> entries, ReadBuffer<std::uint32_t> ends,
                         Buckets buckets, WriteBuffer<X> partial_sums, WriteBuffer<std::uint32_t> run_buckets,
                         UInt bucket_count, UInt steps, UInt run_length) {
          UInt run = msm_invocation(workgroup_size);
          UInt total = ends[bucket_count - 1u];
          UInt first = run * run_length;
          if_(run < run_buckets.size() && first >= total, [&] { run_buckets[run] = no_run_bucket; });
          if_(first < total, [&] {
            UInt last = min(first + run_length, total);
            Var<std::uint32_t> bucket = bucket_of(ends, bucket_count, steps, first);
            Var<std::uint32_t> start = bucket_start(ends, bucket.load());
            run_buckets[run] = select(start.load() < first, bucket.load(), UInt(no_run_bucket));
            Var<std::uint32_t> end = ends[bucket.load()];
            const SourceLoc& loc = run.node()->loc;
            // A bucket that starts in the run sums from what an earlier batch left in it (adding),
            // so the loop's mixed additions carry it and no full addition is needed.
            auto starting_sum = [&]() -> Expr<X> {
              if constexpr (Write == BucketWrite::Add) return buckets[bucket.load()].load();
              else return xyzz_infinity_point<C>(loc);
            };
            Var<X> sum = xyzz_infinity_point<C>(loc);
            if constexpr (Write == BucketWrite::Add) if_(start.load() >= first, [&] { sum = starting_sum(); });
            auto flush = [&] {
              if_(start.load() < first, [&] { partial_sums[run] = sum.load(); }).else_([&] {
                buckets[bucket.load()] = sum.load();
              });
            };
            // The next entry and its point load an iteration ahead, while this one's addition runs.
            Var<std::uint32_t> next_entry = entries[first];
            Var<A> next_point = points[next_entry.load() & ~msm_sign_bit];
            for_(first, last, [&](UInt e) {
              if_(e >= end.load(), [&] {
                flush();
                // The bucket ended here, so the next non-empty one starts here.
                bucket = bucket_after(ends, bucket_count, steps, bucket.load(), e);
                start = e;
                end = UInt(ends[bucket.load()]);
                sum = starting_sum();
              });
              UInt entry = next_entry.load();
              Expr<A> point = next_point.load();
              next_entry = entries[min(e + 1u, last - 1u)];
              next_point = points[next_entry.load() & ~msm_sign_bit];
              sum = add_affine<C>(sum.load(), negated_if<C>((entry & msm_sign_bit) != 0u, point));
            });
            flush();
          });
        },
        workgroup(workgroup_size)
            .names("points", "entries", "ends", "buckets", "partial_sums", "run_buckets", "bucket_count",
                   "steps", "run_length"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      callable_key<C>("msm_bucket_accumulation/" + std::to_string(workgroup_size) +
                      (Write == BucketWrite::Store ? "/store" : "/add")),
      trace);
}

// Records the accumulation and the combination (xyzz_sums.hpp) over `bucket_count`
// buckets and `entry_bound` entries at most (zero digits are in no bucket), in runs of
// `run_length` entries, `workgroup_size` runs a workgroup; `run_buckets` holds a word per run.
template <ShortWeierstrass C>
void record_bucket_accumulation(Sequence& sequence, const DeviceBuffer<Affine<C>>& points, BucketWrite write,
                                const DeviceBuffer<std::uint32_t>& entries, XyzzSumBuffers<C> buffers,
                                const DeviceBuffer<std::uint32_t>& run_buckets, std::uint64_t entry_bound,
                                std::uint64_t bucket_count, std::uint32_t run_length, std::uint32_t workgroup_size) {
  const std::uint64_t runs = msm_runs(entry_bound, run_length);
  auto accumulate = [&](const auto& kernel) {
    sequence.run(kernel, msm_grid(runs, workgroup_size), points, entries, buffers.ends, buffers.buckets,
                 buffers.partial_sums, run_buckets, std::uint32_t(bucket_count), bisection_steps(bucket_count),
                 run_length);
  };
  if (write == BucketWrite::Store) {
    sequence.fill(buffers.buckets, 0);  // empty buckets are never written: the point at infinity
    accumulate(bucket_accumulation_kernel<C, BucketWrite::Store>(workgroup_size));
  } else {
    accumulate(bucket_accumulation_kernel<C, BucketWrite::Add>(workgroup_size));
  }
  buffers.run_buckets = &run_buckets;
  record_xyzz_sums<C>(sequence, buffers, XyzzSums::RunChunks, runs, run_length);
  record_xyzz_sums<C>(sequence, buffers, XyzzSums::CombineRuns, runs, run_length);
}

}  // namespace sprig::curve::detail
