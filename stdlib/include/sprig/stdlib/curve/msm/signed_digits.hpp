// MSM stage (a): scalars to signed window digits (Booth recoding). Window w of c bits takes
// the digit
//
//   d_w = bits[wc, wc + c) + bit[wc - 1] - 2^c bit[wc + c - 1]      in [-2^(c-1), 2^(c-1)]
//
// so that sum_w d_w 2^(wc) = k as long as the windows cover one bit above k's highest: a
// window whose top bit is set becomes negative and passes a carry of one into the window
// above, which reads that carry as its bit wc - 1. Each digit depends on c + 1 bits only,
// so any batch of windows is decomposed without the windows below it.
//
// One u32 per (window, point): the bucket (window in the batch * 2^(c-1) + |d| - 1, or
// |d| - 1 where the windows share their buckets over a table of window multiples) shifted
// left by one, with the sign in bit 0, or msm_no_bucket for d = 0. The same invocation
// counts its bucket's entries (atomically), the counts the grouping stage scans.
#pragma once

#include <array>
#include <string>

#include "sprig/stdlib/curve/msm/invocations.hpp"
#include "sprig/stdlib/curve/msm/msm_plan.hpp"
#include "sprig/stdlib/curve/msm/msm_scalars.hpp"
#include "sprig/stdlib/curve/point_functions.hpp"
#include "sprig/stdlib/field/fp.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

// A scalar's words with one zero word above, indexed at run time: windows read up to the
// word after the scalar's last.
using ScalarBits = std::array<std::uint32_t, 9>;

// `count` (1 to 31) bits of `words` from bit `lo` (below 256).
inline UInt bits_at(Var<ScalarBits>& words, const UInt& lo, const UInt& count) {
  UInt word = lo >> 5u, shift = lo & 31u;
  UInt low = UInt(words[word]) >> shift;
  // Shifts count modulo 32 (language.md): a window starting on a word boundary takes
  // nothing from the next word.
  UInt high = select(shift == 0u, UInt(0u), UInt(words[word + 1u]) << (32u - shift));
  return (low | high) & ((1u << count) - 1u);
}

template <ShortWeierstrass C, MsmScalarForm<C> S>
const auto& signed_digits_kernel() {
  constexpr bool montgomery = std::is_same_v<S, MsmMontgomeryScalar<C>>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + "_msm_signed_digits",
        [](ReadBuffer<S> scalars, WriteBuffer<std::uint32_t> digits, Buffer<std::uint32_t> counts, UInt n,
           UInt first_scalar, UInt first_window, UInt windows, UInt c, UInt bucket_stride) {
          UInt i = msm_invocation();
          if_(i < n, [&] {
            // Scalars at or above r are reduced: k mod r is the same multiple of a point of
            // the order-r group. from_canonical reduces any 256-bit value (a product by R^2);
            // a Montgomery scalar is an element already, and words() its value (a product by 1).
            using Fr = field::Fp<typename C::Scalar>;
            auto reduced = [&] {
              if constexpr (montgomery)
                return Fr(scalars[first_scalar + i]).words();
              else
                return Fr::from_canonical(scalars[first_scalar + i]).words();
            }();
            Var<ScalarBits> words;
            for (std::size_t j = 0; j < reduced.size(); ++j) words[std::uint32_t(j)] = reduced[j];
            words[8u] = 0u;
            for_(0u, windows, [&](UInt b) {
              UInt lo = (first_window + b) * c;
              UInt raw = bits_at(words, lo, c);
              UInt carry = select(lo == 0u, UInt(0u), bits_at(words, max(lo, 1u) - 1u, 1u));
              Bool negative = (raw >> (c - 1u)) != 0u;
              UInt magnitude = select(negative, (1u << c) - raw - carry, raw + carry);
              UInt bucket = b * bucket_stride + magnitude - 1u;
              digits[b * n + i] =
                  select(magnitude == 0u, UInt(msm_no_bucket), (bucket << 1u) | select(negative, 1u, 0u));
              if_(magnitude != 0u, [&] { atomic_add(counts[bucket], 1u); });
            });
          });
        },
        workgroup(msm_workgroup_size)
            .names("scalars", "digits", "counts", "n", "first_scalar", "first_window", "windows", "c",
                   "bucket_stride"));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(
      callable_key<C>(montgomery ? "msm_signed_digits/montgomery" : "msm_signed_digits"), trace);
}

}  // namespace sprig::curve::detail
