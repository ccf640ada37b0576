// The Montgomery product on unsaturated limbs: a and b split into L limbs of 29 bits, each
// limb product (58 bits) added into a 64-bit column sum, so that no carry is taken until
// the end. A GPU does each such step as one multiply-add of two 32-bit operands into a
// 64-bit sum (IMAD.WIDE on NVIDIA), where saturated limbs need a carry chain per word.
// It reads and returns the 32-bit words the field stores, and R is 2^(32 N) as for the
// other products: the results are theirs, word for word.
//
// Reduction is Montgomery's, digit by digit (Montgomery, 1985; one digit per step as in
// Koc, Acar and Kaliski's separated operand scanning): L - 1 steps of 29 bits and a last
// step of r = 32 N - 29 (L - 1) bits divide by exactly 2^(32 N). Bounds: every column sum
// stays below 2L products of two 29-bit limbs plus a carry, 2^63 for L up to 14 (BLS12-381's
// base field), and the result below 2p, so one conditional subtraction makes it canonical.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "sprig/stdlib/field/limb_chains.hpp"
#include "sprig/stdlib/field/modulus.hpp"

namespace sprig::field::detail {

inline constexpr unsigned unsaturated_bits = 29;

template <PrimeModulus P>
struct UnsaturatedModulus {
  static constexpr std::size_t words = FieldConstants<P>::limbs;
  static constexpr std::size_t limbs = (32 * words + unsaturated_bits - 1) / unsaturated_bits;
  static constexpr unsigned last_step_bits = 32 * words - unsaturated_bits * (limbs - 1);  // 1..29
  static_assert(2 * limbs <= 28, "column sums of more limbs could pass 2^64");

  // Bits [from, from + count) of a little-endian array of 32-bit words (count <= 32).
  static constexpr std::uint32_t bits_of(const Limbs<words>& w, unsigned from, unsigned count) {
    std::uint64_t window = 0;
    for (unsigned k = 0; k < 2; ++k) {
      unsigned word = from / 32 + k;
      if (word < words) window |= std::uint64_t(w[word]) << (32 * k);
    }
    std::uint64_t value = window >> (from % 32);
    return std::uint32_t(value & ((std::uint64_t(1) << count) - 1));
  }
  static constexpr std::array<std::uint32_t, limbs> modulus = [] {
    std::array<std::uint32_t, limbs> m{};
    for (std::size_t k = 0; k < limbs; ++k)
      m[k] = bits_of(FieldConstants<P>::modulus, unsaturated_bits * k, unsaturated_bits);
    return m;
  }();
  // -p^-1 mod 2^32; its low bits are -p^-1 mod 2^29 and mod 2^r.
  static constexpr std::uint32_t inverse = FieldConstants<P>::inverse;
};

// Where limb k (bits [29k, 29k + 29)) of a value held in 32-bit words comes from.
template <std::size_t N>
UInt unsaturated_limb(const Words<N>& w, std::size_t k) {
  const std::size_t from = unsaturated_bits * k, word = from / 32, shift = from % 32;
  const UInt mask((1u << unsaturated_bits) - 1u);
  UInt low = shift == 0 ? w[word] : w[word] >> std::uint32_t(shift);
  if (shift + unsaturated_bits > 32 && word + 1 < N) low = low | (w[word + 1] << std::uint32_t(32 - shift));
  return low & mask;
}

// The L 29-bit limbs of a value held in 32-bit words, zero-extended to 64 bits.
template <PrimeModulus P>
std::array<ULong, UnsaturatedModulus<P>::limbs> unsaturated_limbs(const Words<FieldConstants<P>::limbs>& w) {
  return [&]<std::size_t... J>(std::index_sequence<J...>) {
    return std::array<ULong, UnsaturatedModulus<P>::limbs>{cast<std::uint64_t>(unsaturated_limb(w, J))...};
  }(std::make_index_sequence<UnsaturatedModulus<P>::limbs>{});
}

// Column k of 2L column sums: the limb products of weight 2^(29k), or none.
template <PrimeModulus P>
using UnsaturatedColumns = std::array<std::optional<ULong>, 2 * UnsaturatedModulus<P>::limbs>;

inline void add_to_column(std::optional<ULong>& column, const ULong& product) {
  column = column ? *column + product : product;
}

template <PrimeModulus P>
Words<FieldConstants<P>::limbs> unsaturated_reduction(const UnsaturatedColumns<P>& columns,
                                                      const Words<FieldConstants<P>::limbs>& like);

// a * b * R^-1 mod p, canonical, for a < p and b < R.
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> montgomery_product_unsaturated(const Words<FieldConstants<P>::limbs>& a32,
                                                               const Words<FieldConstants<P>::limbs>& b32) {
  constexpr std::size_t L = UnsaturatedModulus<P>::limbs;
  const std::array<ULong, L> a = unsaturated_limbs<P>(a32), b = unsaturated_limbs<P>(b32);
  UnsaturatedColumns<P> columns;
  for (std::size_t i = 0; i < L; ++i)
    for (std::size_t j = 0; j < L; ++j) add_to_column(columns[i + j], a[i] * b[j]);
  return unsaturated_reduction<P>(columns, a32);
}

// a * a * R^-1 mod p, canonical, for a < p: each product of two different limbs once,
// doubled (2 a_i is below 2^30), L (L + 1) / 2 multiplications instead of L^2. Column k
// then holds the same sum a product's does, in fewer terms (below (k + 1) 2^58 either
// way), so the reduction's bounds hold as they are.
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> montgomery_square_unsaturated(const Words<FieldConstants<P>::limbs>& a32) {
  constexpr std::size_t L = UnsaturatedModulus<P>::limbs;
  const std::array<ULong, L> a = unsaturated_limbs<P>(a32);
  UnsaturatedColumns<P> columns;
  for (std::size_t i = 0; i < L; ++i) {
    add_to_column(columns[2 * i], a[i] * a[i]);
    if (i + 1 == L) break;
    const ULong twice = a[i] << std::uint64_t(1);
    for (std::size_t j = i + 1; j < L; ++j) add_to_column(columns[i + j], twice * a[j]);
  }
  return unsaturated_reduction<P>(columns, a32);
}

// Montgomery's reduction of column sums to the canonical product; `like` only gives the
// result its shape.
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> unsaturated_reduction(const UnsaturatedColumns<P>& columns,
                                                      const Words<FieldConstants<P>::limbs>& like) {
  using K = UnsaturatedModulus<P>;
  constexpr std::size_t N = K::words, L = K::limbs;
  std::array<ULong, 2 * L> t = [&]<std::size_t... J>(std::index_sequence<J...>) {
    return std::array<ULong, 2 * L>{columns[J].value_or(ULong(0ull))...};
  }(std::make_index_sequence<2 * L>{});

  // Steps of Montgomery's reduction: the multiple m of p that clears the lowest column's
  // low `bits` bits, then that column's rest carried up.
  auto step = [&](std::size_t s, unsigned bits) {
    const UInt mask((1u << bits) - 1u);
    UInt m = (cast<std::uint32_t>(t[s]) * UInt(K::inverse)) & mask;
    ULong wide_m = cast<std::uint64_t>(m);
    for (std::size_t j = 0; j < L; ++j) t[s + j] = t[s + j] + wide_m * ULong(std::uint64_t(K::modulus[j]));
  };
  for (std::size_t s = 0; s + 1 < L; ++s) {
    step(s, unsaturated_bits);
    t[s + 1] = t[s + 1] + (t[s] >> std::uint64_t(unsaturated_bits));
  }
  step(L - 1, K::last_step_bits);

  // The value is now sum over k >= L - 1 of t[k] 2^(29 (k - L + 1)), a multiple of 2^r:
  // carry it into 29-bit digits, then read 32-bit words from bit r on.
  std::array<UInt, L + 1> digits = [&]<std::size_t... J>(std::index_sequence<J...>) {
    return std::array<UInt, L + 1>{(void(J), UInt(0u))...};
  }(std::make_index_sequence<L + 1>{});
  ULong carry(0ull);
  for (std::size_t k = 0; k < L; ++k) {
    ULong x = t[L - 1 + k] + carry;
    digits[k] = cast<std::uint32_t>(x) & UInt((1u << unsaturated_bits) - 1u);
    carry = x >> std::uint64_t(unsaturated_bits);
  }
  digits[L] = cast<std::uint32_t>(carry);  // below 2^30: the result is below 2p < 2^(32 N + 1)
  auto word_at = [&](unsigned from) {      // bits [from, from + 32) of the digits
    UInt word(0u);
    for (std::size_t k = 0; k <= L; ++k) {
      const long low = long(unsaturated_bits * k) - long(from);
      const long high = low + (k == L ? 32 : long(unsaturated_bits));
      if (high <= 0 || low >= 32) continue;
      word = word | (low >= 0 ? digits[k] << std::uint32_t(low) : digits[k] >> std::uint32_t(-low));
    }
    return word;
  };
  Words<N> result = like;
  for (std::size_t w = 0; w < N; ++w) result[w] = word_at(unsigned(K::last_step_bits + 32 * w));
  UInt overflow = word_at(unsigned(K::last_step_bits + 32 * N)) & 1u;
  return reduce_once(result, FieldConstants<P>::modulus, overflow);
}

}  // namespace sprig::field::detail
