// The Montgomery product a * b * R^-1 mod p in the DSL, by CIOS (coarsely integrated
// operand scanning, Koc, Acar and Kaliski, "Analyzing and Comparing Montgomery
// Multiplication Algorithms", 1996): for each word b[i], add a * b[i] to the running value
// t, then add the multiple m * p that clears t's low word and drop that word. The loops are
// unrolled at trace time into straight-line code (no local arrays, which GPUs would keep in
// memory), so each product is N^2 multiply-adds of each kind.
//
// Bounds: a < p and any b < R give t < 2p throughout, so one conditional subtraction makes
// the result canonical. The conversion from canonical form relies on b being free: it is
// the product of R^2 mod p (as a) with an unreduced 32N-bit value (as b).
#pragma once

#include "sprig/stdlib/field/limb_chains.hpp"
#include "sprig/stdlib/field/modulus.hpp"

namespace sprig::field::detail {

// t + m * p's high word where m makes the low word zero: m * p[0] = -t0 mod 2^32, so the
// low word's carry is 1 exactly when t0 != 0 (a comparison instead of a product).
inline UInt reduction_carry(const UInt& m, const UInt& p0, const UInt& t0) {
  return mul_hi(m, p0) + select(t0 != 0u, UInt(1u), UInt(0u));
}

// Moduli with a spare top bit (FieldConstants::spare_bit): t stays in N words. The two carry
// chains (A for a * b[i], C for m * p) run side by side and meet in the top word
// (Botrel and El Housni, "Faster Montgomery multiplication and multi-scalar-multiplication
// for SNARKs", 2023).
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> montgomery_product_spare_bit(const Words<FieldConstants<P>::limbs>& a,
                                                             const Words<FieldConstants<P>::limbs>& b) {
  using K = FieldConstants<P>;
  constexpr std::size_t N = K::limbs;
  const UInt inverse(K::inverse);
  Words<N> t = a;  // every word is written before it is read
  for (std::size_t i = 0; i < N; ++i) {
    WordCarry low = i == 0 ? multiply_add(a[0], b[0], {}) : multiply_add(a[0], b[i], {t[0]});
    UInt carry_a = low.carry;
    t[0] = low.word;
    UInt m = t[0] * inverse;
    UInt carry_c = reduction_carry(m, UInt(K::modulus[0]), t[0]);
    for (std::size_t j = 1; j < N; ++j) {
      WordCarry s = i == 0 ? multiply_add(a[j], b[0], {carry_a}) : multiply_add(a[j], b[i], {t[j], carry_a});
      carry_a = s.carry;
      WordCarry r = multiply_add(m, UInt(K::modulus[j]), {s.word, carry_c});
      carry_c = r.carry;
      t[j - 1] = r.word;
    }
    t[N - 1] = carry_c + carry_a;
  }
  return reduce_once(t, K::modulus);
}

// Any odd modulus: t takes two words more (t[N] and the carry t[N + 1]).
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> montgomery_product_general(const Words<FieldConstants<P>::limbs>& a,
                                                           const Words<FieldConstants<P>::limbs>& b) {
  using K = FieldConstants<P>;
  constexpr std::size_t N = K::limbs;
  const UInt inverse(K::inverse);
  Words<N> t = a;  // every word is written before it is read
  UInt top(0u);    // t[N]
  for (std::size_t i = 0; i < N; ++i) {
    UInt carry(0u);
    for (std::size_t j = 0; j < N; ++j) {
      WordCarry s = i == 0 ? (j == 0 ? multiply_add(a[0], b[0], {}) : multiply_add(a[j], b[0], {carry}))
                           : multiply_add(a[j], b[i], {t[j], carry});
      t[j] = s.word;
      carry = s.carry;
    }
    UInt overflow(0u);  // t[N + 1]
    if (i == 0) {
      top = carry;
    } else {
      overflow = add_carry(top, carry);
      top = top + carry;
    }
    UInt m = t[0] * inverse;
    carry = reduction_carry(m, UInt(K::modulus[0]), t[0]);
    for (std::size_t j = 1; j < N; ++j) {
      WordCarry r = multiply_add(m, UInt(K::modulus[j]), {t[j], carry});
      t[j - 1] = r.word;
      carry = r.carry;
    }
    t[N - 1] = top + carry;
    top = overflow + add_carry(top, carry);
  }
  return reduce_once(t, K::modulus, top);
}

// a * b * R^-1 mod p, canonical, for a < p and b < R.
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> montgomery_product(const Words<FieldConstants<P>::limbs>& a,
                                                   const Words<FieldConstants<P>::limbs>& b) {
  if constexpr (FieldConstants<P>::spare_bit) return montgomery_product_spare_bit<P>(a, b);
  else return montgomery_product_general<P>(a, b);
}

}  // namespace sprig::field::detail
