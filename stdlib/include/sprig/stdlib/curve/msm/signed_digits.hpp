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
// Split by the endomorphism (scalar_split.hpp), a scalar's halves k1 and k2 (magnitudes with
// signs) give the digits of the point and of its image, each negated with its half.
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
#include "sprig/stdlib/curve/msm/scalar_split.hpp"
#include "sprig/stdlib/curve/point_functions.hpp"
#include "sprig/stdlib/field/fp.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::curve::detail {

// A scalar's 8 words and two zero words above, indexed at run time: the windows cover one
// bit more than the scalar, so with a 256-bit r (secp256k1's) the last window starts at bit
// 256, in word 8, and reads word 9 too.
inline constexpr std::uint32_t words_in_scalar_bits = 10;
using ScalarBits = std::array<std::uint32_t, words_in_scalar_bits>;

// `count` (1 to 31) bits of `words` from bit `lo` (at most 256).
inline UInt bits_at(Var<ScalarBits>& words, const UInt& lo, const UInt& count) {
  UInt word = lo >> 5u, shift = lo & 31u;
  UInt low = UInt(words[word]) >> shift;
  // Shifts count modulo 32 (language.md): a window starting on a word boundary takes
  // nothing from the next word.
  UInt high = select(shift == 0u, UInt(0u), UInt(words[word + 1u]) << (32u - shift));
  return (low | high) & ((1u << count) - 1u);
}

// The digits of `windows` windows from `first_window` of the scalar in `words` (its value
// and a zero word above) into row `row` of each window's `rows` rows of n digits, negated
// where `scalar_sign` is 1.
inline void write_signed_digits(Var<ScalarBits>& words, const UInt& scalar_sign, WriteBuffer<std::uint32_t>& digits,
                                Buffer<std::uint32_t>& counts, const UInt& i, const UInt& n, std::uint32_t row,
                                std::uint32_t rows, const UInt& first_window, const UInt& windows, const UInt& c,
                                const UInt& bucket_stride) {
  for_(0u, windows, [&](UInt b) {
    UInt lo = (first_window + b) * c;
    UInt raw = bits_at(words, lo, c);
    UInt carry = select(lo == 0u, UInt(0u), bits_at(words, max(lo, 1u) - 1u, 1u));
    Bool negative = (raw >> (c - 1u)) != 0u;
    UInt magnitude = select(negative, (1u << c) - raw - carry, raw + carry);
    UInt bucket = b * bucket_stride + magnitude - 1u;
    UInt sign = select(negative, 1u, 0u) ^ scalar_sign;
    digits[(b * rows + row) * n + i] = select(magnitude == 0u, UInt(msm_no_bucket), (bucket << 1u) | sign);
    if_(magnitude != 0u, [&] { atomic_add(counts[bucket], 1u); });
  });
}

// Scalars to digits. With `Split` (MsmPlan::scalar_parts 2), each scalar is split first
// (scalar_split.hpp) and each window has two rows of n digits: k1's for the points, then
// k2's for their images under the endomorphism.
template <ShortWeierstrass C, MsmScalarForm<C> S, bool Split = false>
  requires(!Split || HasEndomorphism<C>)
const auto& signed_digits_kernel() {
  constexpr bool montgomery = std::is_same_v<S, MsmMontgomeryScalar<C>>;
  auto trace = [] {
    return kernel(
        std::string(C::name) + (Split ? "_msm_split_signed_digits" : "_msm_signed_digits"),
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
            auto digits_of = [&](const auto& value, const UInt& sign, std::uint32_t row, std::uint32_t rows) {
              Var<ScalarBits> words;
              for (std::uint32_t j = 0; j < words_in_scalar_bits; ++j)
                words[j] = j < value.size() ? value[j] : UInt(0u);
              write_signed_digits(words, sign, digits, counts, i, n, row, rows, first_window, windows, c,
                                  bucket_stride);
            };
            if constexpr (Split) {
              auto halves = split_scalar<C>(reduced);
              digits_of(halves[0].magnitude, halves[0].sign, 0, 2);
              digits_of(halves[1].magnitude, halves[1].sign, 1, 2);
            } else {
              digits_of(reduced, UInt(0u), 0, 1);
            }
          });
        },
        workgroup(msm_workgroup_size)
            .names("scalars", "digits", "counts", "n", "first_scalar", "first_window", "windows", "c",
                   "bucket_stride"));
  };
  std::string key = std::string(montgomery ? "msm_signed_digits/montgomery" : "msm_signed_digits") +
                    (Split ? "/split" : "");
  return sprig::detail::cached_kernel<decltype(trace())>(callable_key<C>(key), trace);
}

}  // namespace sprig::curve::detail
