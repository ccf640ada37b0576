// Sums and differences modulo p on words of canonical (reduced) elements, which Montgomery
// forms are too: (a + b) R = aR + bR. One carry chain and one conditional correction each.
#pragma once

#include "sprig/stdlib/field/limb_chains.hpp"
#include "sprig/stdlib/field/modulus.hpp"

namespace sprig::field::detail {

// a + b mod p for a, b < p.
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> modular_sum(const Words<FieldConstants<P>::limbs>& a,
                                            const Words<FieldConstants<P>::limbs>& b) {
  using K = FieldConstants<P>;
  Words<K::limbs> sum = a;
  WordCarry top = add_words(a, b, sum);
  // With a spare bit the sum is below 2p < R and never carries out.
  if constexpr (K::spare_bit) return reduce_once(sum, K::modulus);
  else return reduce_once(sum, K::modulus, top.carry);
}

// a - b mod p for a, b < p: p is added back after a borrow.
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> modular_difference(const Words<FieldConstants<P>::limbs>& a,
                                                   const Words<FieldConstants<P>::limbs>& b) {
  using K = FieldConstants<P>;
  Words<K::limbs> difference = a;
  UInt no_borrow = subtract_words(a, b, difference);
  return add_constant_after_borrow(difference, K::modulus, no_borrow);
}

}  // namespace sprig::field::detail
