// Which bucket a grouped entry is in: the grouping stage leaves ends[b], one past bucket
// b's last entry (non-decreasing), and the accumulation and the combination of its runs
// find an entry's bucket by bisection over those ends.
#pragma once

#include <bit>
#include <cstdint>

#include "sprig/dsl.hpp"

namespace sprig::curve::detail {

// The bucket holding entry e: the first b < bucket_count with ends[b] > e (ends is
// non-decreasing and ends[bucket_count - 1] > e), by bisection in `steps` rounds.
inline UInt bucket_of(const ReadBuffer<std::uint32_t>& ends, const UInt& bucket_count, const UInt& steps,
                      const UInt& e) {
  Var<std::uint32_t> lo = 0u, hi = bucket_count - 1u;
  for_(0u, steps, [&](UInt) {
    UInt mid = (lo.load() + hi.load()) >> 1u;
    Bool above = UInt(ends[mid]) > e;
    hi = select(above, mid, hi.load());
    lo = select(above, lo.load(), mid + 1u);
  });
  return hi.load();
}

// The bucket holding entry e where e is where `bucket` ends (ends[bucket] == e < the last
// end): the next bucket, unless it is empty, which one load tells; only then bisection. A run
// of entries crosses a bucket's end every few entries, and in a subgroup of runs nearly every
// entry is some lane's crossing, so bisecting each time (20 dependent loads at 2^19 buckets)
// stalls the subgroup on almost every entry.
inline UInt bucket_after(const ReadBuffer<std::uint32_t>& ends, const UInt& bucket_count, const UInt& steps,
                         const UInt& bucket, const UInt& e) {
  Var<std::uint32_t> next = bucket + 1u;
  if_(UInt(ends[next.load()]) <= e, [&] { next = bucket_of(ends, bucket_count, steps, e); });
  return next.load();
}

// Where bucket b's entries begin: ends[b - 1], or 0 for the first.
inline UInt bucket_start(const ReadBuffer<std::uint32_t>& ends, const UInt& bucket) {
  return select(bucket == 0u, UInt(0u), UInt(ends[max(bucket, 1u) - 1u]));
}

// The rounds bucket_of needs for `bucket_count` buckets.
inline std::uint32_t bisection_steps(std::uint64_t bucket_count) {
  return std::uint32_t(std::bit_width(bucket_count));
}

}  // namespace sprig::curve::detail
