// MSM stage (c), first part where the plan asks for it (MsmOptions::affine_rounds): rounds
// of affine pair sums before the XYZZ accumulation. A round adds each bucket's points in
// pairs, its first and second, third and fourth, ..., in affine coordinates, into a list
// holding half as many per bucket (an odd last point is copied), so R rounds leave bucket b
// ceil(count_b / 2^R) points for the accumulation's mixed additions.
//
// An affine addition divides by x_Q - x_P. Each invocation takes `pairs` consecutive slots
// of the round's list and shares one inversion among their pairs by Montgomery's trick: a
// walk forward multiplies the denominators, keeping each running product in its slot's x
// until the sum overwrites it (reading the points' x alone); the product is inverted once;
// a walk back gives each pair its inverse with two products. About 6 field products an
// addition and the inversion's share (364 products over `pairs` for BN254), against 10 for
// a mixed XYZZ addition (docs/msm.md).
//
// Round r's list is grouped by bucket as the entries are: bucket b holds slots
// [ends_r[b - 1], ends_r[b]), ends_r the inclusive scan of ceil(count / 2) of round r - 1's
// counts. The first round reads the points through the grouped entries (the sign bit
// negating), later ones the list of the round before.
//
// Within a pair, equal points (a doubling: lambda = 3 x^2 / 2 y), opposite ones (the point
// at infinity) and the point at infinity on either side are taken within the batch: such a
// pair's denominator is 2 y, or 1 where the sum needs no division, so that no zero enters
// the batch's product (which would zero every inverse of the batch).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "sprig/stdlib/curve/affine_point.hpp"
#include "sprig/stdlib/curve/msm/bucket_search.hpp"
#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/point_steps.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/scan.hpp"

namespace sprig::curve::detail {

// How the two points of a pair add.
struct PairKind {
  Bool first_infinite, second_infinite;
  Bool doubling;  // equal points, neither the point at infinity
  Bool cancels;   // opposite points: the sum is the point at infinity
};

template <ShortWeierstrass C>
PairKind pair_kind(const AffinePoint<C>& p, const AffinePoint<C>& q) {
  Bool same_x = p.x() == q.x(), same_y = p.y() == q.y();
  return {p.is_infinity(), q.is_infinity(), same_x && same_y, same_x && !same_y};
}

// What the pair's sum divides by: x_Q - x_P, 2 y_P for a doubling, 1 where it needs no
// division (the point at infinity on either side, or opposite points). Never 0: the curves'
// groups have odd order, so no point but the point at infinity has y = 0.
template <ShortWeierstrass C>
field::Fp<typename C::Base> pair_denominator(const PairKind& kind, const AffinePoint<C>& p, const AffinePoint<C>& q) {
  using F = field::Fp<typename C::Base>;
  F chord = select(kind.doubling, p.y() + p.y(), q.x() - p.x());
  return select(kind.first_infinite || kind.second_infinite || kind.cancels, F::one(), chord);
}

// p + q, given the inverse of pair_denominator(kind, p, q).
template <ShortWeierstrass C>
AffinePoint<C> pair_sum(const PairKind& kind, const AffinePoint<C>& p, const AffinePoint<C>& q,
                        const field::Fp<typename C::Base>& denominator_inverse) {
  using F = field::Fp<typename C::Base>;
  Var<F> numerator = q.y() - p.y();
  if_(kind.doubling, [&] {  // rare: only there the square
    F xx = p.x().square();
    numerator = xx + xx + xx;
  });
  F lambda = F(numerator) * denominator_inverse;
  F x = lambda.square() - p.x() - q.x();
  AffinePoint<C> sum(x, lambda * (p.x() - x) - p.y());
  return select(kind.first_infinite, q,
                select(kind.second_infinite, p, select(kind.cancels, AffinePoint<C>::infinity(), sum)));
}

// counts[b] = ceil(count_b / 2) for the buckets of `ends`: the next round's counts.
inline const auto& halved_bucket_counts_kernel() {
  auto trace = [] {
    return kernel(
        "msm_halved_bucket_counts",
        [](ReadBuffer<std::uint32_t> ends, WriteBuffer<std::uint32_t> counts, UInt bucket_count) {
          UInt b = msm_invocation();
          if_(b < bucket_count, [&] { counts[b] = (UInt(ends[b]) - bucket_start(ends, b) + 1u) >> 1u; });
        },
        workgroup(msm_workgroup_size).names("ends", "counts", "bucket_count"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>("curve/msm_halved_bucket_counts", trace);
}

// One round: sums[o] for the slots o of the round's list (ends_out), `pairs` consecutive
// slots an invocation. Slot o, the j-th of bucket b, sums the previous list's points 2 j
// and 2 j + 1 of b (or copies 2 j where b has no more): the grouped entries' points in the
// first round (`from_entries`), else `points` itself, the previous round's list.
template <ShortWeierstrass C>
const auto& affine_pair_round_kernel(bool from_entries, std::uint32_t pairs) {
  using A = Affine<C>;
  using F = field::Fp<typename C::Base>;
  auto trace = [from_entries, pairs] {
    return kernel(
        std::string(C::name) + "_msm_affine_pair_round",
        [from_entries, pairs](ReadBuffer<A> points, ReadBuffer<std::uint32_t> entries,
                              ReadBuffer<std::uint32_t> ends_in, ReadBuffer<std::uint32_t> ends_out, Buffer<A> sums,
                              UInt bucket_count, UInt steps) {
          UInt total = ends_out[bucket_count - 1u];
          UInt first = msm_invocation() * pairs;
          if_(first < total, [&] {
            UInt last = min(first + pairs, total);
            auto point_at = [&](const UInt& e) -> AffinePoint<C> {
              if (!from_entries) return AffinePoint<C>(points[e]);
              UInt entry = entries[e];
              return negated_if<C>((entry & msm_sign_bit) != 0u, points[entry & ~msm_sign_bit]);
            };
            // x alone, which a negative digit leaves as it is: half the point's bytes.
            auto x_at = [&](const UInt& e) -> F {
              if (!from_entries) return F(points[e][&A::x]);
              return F(points[UInt(entries[e]) & ~msm_sign_bit][&A::x]);
            };
            // The bucket of the slot walked: where it begins in both lists and ends in each.
            Var<std::uint32_t> bucket = bucket_of(ends_out, bucket_count, steps, first);
            Var<std::uint32_t> out_start = 0u, out_end = 0u, in_start = 0u, in_end = 0u;
            auto enter = [&] {
              out_start = bucket_start(ends_out, bucket.load());
              out_end = UInt(ends_out[bucket.load()]);
              in_start = bucket_start(ends_in, bucket.load());
              in_end = UInt(ends_in[bucket.load()]);
            };
            enter();
            auto first_of_pair = [&](const UInt& o) { return in_start.load() + 2u * (o - out_start.load()); };

            Var<F> product = F::one();  // of the denominators walked so far
            for_(first, last, [&](UInt o) {
              if_(o >= out_end.load(), [&] {
                bucket = bucket_after(ends_out, bucket_count, steps, bucket.load(), o);
                enter();
              });
              UInt e = first_of_pair(o);
              if_(e + 1u < in_end.load(), [&] {
                // The denominator from the x's, unless they are equal or one is 0 (the point at
                // infinity is (0, 0)): only then do the whole points decide, a rare branch.
                F x_p = x_at(e), x_q = x_at(e + 1u);
                Var<F> denominator = x_q - x_p;
                if_(x_p == x_q || x_p.is_zero() || x_q.is_zero(), [&] {
                  AffinePoint<C> p = point_at(e), q = point_at(e + 1u);
                  denominator = pair_denominator<C>(pair_kind<C>(p, q), p, q);
                });
                sums[o][&A::x] = product;  // the product of the denominators before this one
                product = F(product) * F(denominator);
              }).else_([&] { sums[o] = point_at(e); });
            });
            // The inverse of the product of the denominators not yet walked back over.
            Var<F> inverse = F(product).inverse();
            for_(0u, last - first, [&](UInt k) {
              UInt o = last - 1u - k;
              if_(o < out_start.load(), [&] {
                bucket = bucket_before(ends_out, bucket_count, steps, bucket.load(), o);
                enter();
              });
              UInt e = first_of_pair(o);
              if_(e + 1u < in_end.load(), [&] {
                AffinePoint<C> p = point_at(e), q = point_at(e + 1u);
                PairKind kind = pair_kind<C>(p, q);
                F denominator = pair_denominator<C>(kind, p, q);
                F denominator_inverse = F(inverse) * F(sums[o][&A::x]);
                inverse = F(inverse) * denominator;
                sums[o] = pair_sum<C>(kind, p, q, denominator_inverse);
              });
            });
          });
        },
        workgroup(msm_workgroup_size)
            .names("points", "entries", "ends_in", "ends_out", "sums", "bucket_count", "steps"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      callable_key<C>(std::string("msm_affine_pair_round/") + (from_entries ? "entries/" : "list/") +
                      std::to_string(pairs)),
      trace);
}

// Where the accumulation goes on after the rounds: the last round's list, its ends, and a
// bound on its length.
template <ShortWeierstrass C>
struct PairSumsOutput {
  const DeviceBuffer<Affine<C>>* points;
  const DeviceBuffer<std::uint32_t>* ends;
  std::uint64_t entry_bound;
};

// The buffers the rounds use: `counts` for the halved counts (the grouping's counts, free
// after its scan), `spare_ends` beside the grouping's ends (the rounds' ends alternate
// between the two), and two lists, the odd rounds' and the even rounds'.
template <ShortWeierstrass C>
struct PairSumBuffers {
  const DeviceBuffer<std::uint32_t>& counts;
  const DeviceBuffer<std::uint32_t>& ends;
  const DeviceBuffer<std::uint32_t>& spare_ends;
  const DeviceBuffer<Affine<C>>& odd_rounds;
  const DeviceBuffer<Affine<C>>& even_rounds;
};

// Records `rounds` rounds (at least one) over the grouped entries of `points` (ends in
// buffers.ends, at most `entry_bound` entries in `bucket_count` buckets), `pairs` slots an
// invocation.
template <ShortWeierstrass C>
PairSumsOutput<C> record_affine_pair_sums(Device& device, Sequence& sequence, const DeviceBuffer<Affine<C>>& points,
                                          const DeviceBuffer<std::uint32_t>& entries, const PairSumBuffers<C>& buffers,
                                          std::uint32_t rounds, std::uint64_t entry_bound,
                                          std::uint64_t bucket_count, std::uint32_t pairs) {
  PairSumsOutput<C> at{&points, &buffers.ends, entry_bound};
  const DeviceBuffer<std::uint32_t>* ends_out = &buffers.spare_ends;
  for (std::uint32_t round = 1; round <= rounds; ++round) {
    sequence.run(halved_bucket_counts_kernel(), msm_grid(bucket_count), *at.ends, buffers.counts,
                 std::uint32_t(bucket_count));
    inclusive_scan(device, sequence, buffers.counts, *ends_out, plus<std::uint32_t>());
    const DeviceBuffer<Affine<C>>& sums = round % 2 ? buffers.odd_rounds : buffers.even_rounds;
    const std::uint64_t bound = msm_pair_sums_bound(entry_bound, bucket_count, round);
    sequence.run(affine_pair_round_kernel<C>(round == 1, pairs), msm_grid((bound + pairs - 1) / pairs), *at.points,
                 entries, *at.ends, *ends_out, sums, std::uint32_t(bucket_count), bisection_steps(bucket_count));
    const DeviceBuffer<std::uint32_t>* ends_in = at.ends;
    at = {&sums, ends_out, bound};
    ends_out = ends_in;  // free now: the next round's ends go there
  }
  return at;
}

}  // namespace sprig::curve::detail
