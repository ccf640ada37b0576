// A scalar k in [0, r) split on the device into k1 + k2 lambda = k mod r, each half a
// magnitude of EndomorphismConstants<C>::split_bits bits and a sign, by the rounding
// endomorphism.hpp describes: c_j is the top of k g_j rounded (k's words times a constant's,
// plus 2^(m-1)), then k1 = k - c1 a1 - c2 a2 and k2 = -c1 b1 - c2 b2 modulo 2^(32 words),
// the halves being small enough that their two's complement in those words is exact. The
// b's signs are known when the kernel is traced, so each term is one addition or one
// subtraction, never a branch.
#pragma once

#include <array>

#include "sprig/stdlib/curve/endomorphism.hpp"
#include "sprig/stdlib/field/limb_chains.hpp"

namespace sprig::curve::detail {

using field::detail::Words;

template <std::size_t W>
struct SplitHalf {
  Words<W> magnitude;
  UInt sign;  // 1 where negative
};

// Words [shift, shift + Out) of k g + 2^(32 shift - 1): the top of k g / 2^(32 shift), rounded.
template <std::size_t Out, std::size_t N, std::size_t G>
Words<Out> rounded_top_of_product(const Words<N>& k, const Limbs<G>& g, std::size_t shift) {
  Words<N + G> product = field::detail::constant_words(Limbs<N + G>{});
  for (std::size_t i = 0; i < N; ++i) {
    UInt carry(0u);
    for (std::size_t j = 0; j < G; ++j) {
      field::detail::WordCarry step = field::detail::multiply_add(k[i], UInt(g[j]), {product[i + j], carry});
      product[i + j] = step.word;
      carry = step.carry;
    }
    product[i + G] = carry;
  }
  // The rounding half: bit 31 of word shift - 1, carried up through the words above.
  UInt carry = add_carry(product[shift - 1], UInt(0x80000000u));
  Words<Out> top = field::detail::constant_words(Limbs<Out>{});
  for (std::size_t j = 0; j < Out; ++j) {
    UInt word = shift + j < N + G ? product[shift + j] : UInt(0u);
    top[j] = word + carry;
    carry = add_carry(word, carry);
  }
  return top;
}

// The low Out words of c a for a constant a.
template <std::size_t Out, std::size_t Cw, std::size_t A>
Words<Out> low_product(const Words<Cw>& c, const Limbs<A>& a) {
  Words<Out> product = field::detail::constant_words(Limbs<Out>{});
  for (std::size_t i = 0; i < Cw && i < Out; ++i) {
    UInt carry(0u);
    for (std::size_t j = 0; j < A && i + j < Out; ++j) {
      field::detail::WordCarry step = field::detail::multiply_add(c[i], UInt(a[j]), {product[i + j], carry});
      product[i + j] = step.word;
      carry = step.carry;
    }
    if (i + A < Out) product[i + A] = carry;  // no earlier row reached this word
  }
  return product;
}

// acc + term, or acc - term, modulo 2^(32 Out).
template <std::size_t Out>
void add_signed(Words<Out>& acc, const Words<Out>& term, bool subtract) {
  Words<Out> result = acc;
  if (subtract) field::detail::subtract_words(acc, term, result);
  else field::detail::add_words(acc, term, result);
  acc = result;
}

// The magnitude and sign of a two's complement value.
template <std::size_t Out>
SplitHalf<Out> magnitude_of(const Words<Out>& value) {
  UInt sign = value[Out - 1] >> 31u;
  UInt mask = 0u - sign;  // all ones when negative: -x = ~x + 1
  Words<Out> magnitude = value;
  UInt carry = sign;
  for (std::size_t j = 0; j < Out; ++j) {
    UInt flipped = value[j] ^ mask;
    magnitude[j] = flipped + carry;
    carry = add_carry(flipped, carry);
  }
  return {magnitude, sign};
}

// k (below r, N words) split into its halves k1 and k2.
template <HasEndomorphism C>
std::array<SplitHalf<EndomorphismConstants<C>::split_words>, 2> split_scalar(
    const Words<EndomorphismConstants<C>::N>& k) {
  using E = EndomorphismConstants<C>;
  constexpr std::size_t S = E::split_words, Cw = E::c_words;
  auto g = [](const auto& wide) { return field::detail::resize<E::g_words>(wide); };
  const Words<Cw> c1 = rounded_top_of_product<Cw>(k, g(E::g1), E::shift_words);
  const Words<Cw> c2 = rounded_top_of_product<Cw>(k, g(E::g2), E::shift_words);
  // k1 = k - c1 a1 - c2 a2 (c1, c2, a1, a2 >= 0).
  Words<S> k1 = field::detail::constant_words(Limbs<S>{});
  for (std::size_t j = 0; j < S && j < E::N; ++j) k1[j] = k[j];
  add_signed(k1, low_product<S>(c1, E::basis.v1.a), true);
  add_signed(k1, low_product<S>(c2, E::basis.v2.a), true);
  // k2 = -c1 b1 - c2 b2: a term is subtracted where its b is positive.
  Words<S> k2 = field::detail::constant_words(Limbs<S>{});
  add_signed(k2, low_product<S>(c1, E::basis.v1.b), !E::basis.v1.b_negative);
  add_signed(k2, low_product<S>(c2, E::basis.v2.b), !E::basis.v2.b_negative);
  return {magnitude_of(k1), magnitude_of(k2)};
}

}  // namespace sprig::curve::detail
