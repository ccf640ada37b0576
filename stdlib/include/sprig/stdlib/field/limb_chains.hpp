// Carry chains over 32-bit limbs in the DSL: the building blocks of the field operations.
// Carries are UInt 0 or 1, from add_carry (OpIAddCarry); the high halves of products come
// from mul_hi (OpUMulExtended). A subtraction a - b is the addition a + ~b + 1, whose carry
// out is 1 exactly when nothing was borrowed, so one kind of chain serves both.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/field/big_constant.hpp"

namespace sprig::field::detail {

template <std::size_t N>
using Words = std::array<UInt, N>;

// A word and what carries out of it.
struct WordCarry {
  UInt word;
  UInt carry;
};

// a + b + carry_in (carry_in 0 or 1).
inline WordCarry add_with_carry_in(const UInt& a, const UInt& b, const UInt& carry_in) {
  UInt sum = a + b;
  // At most one of the two additions carries: a + b + 1 <= 2 * (2^32 - 1) + 1.
  return {sum + carry_in, add_carry(a, b) | add_carry(sum, carry_in)};
}

// a * b plus each addend (below 2^32; two at most, so the result fits 64 bits):
// {low word, high word}.
inline WordCarry multiply_add(const UInt& a, const UInt& b, std::initializer_list<UInt> addends) {
  UInt low = a * b;
  UInt high = mul_hi(a, b);
  for (const UInt& addend : addends) {
    UInt sum = low + addend;
    high = high + add_carry(low, addend);
    low = sum;
  }
  return {low, high};
}

// N words of the constant c.
template <std::size_t N>
Words<N> constant_words(const Limbs<N>& c) {
  return [&]<std::size_t... J>(std::index_sequence<J...>) { return Words<N>{UInt(c[J])...}; }(std::make_index_sequence<N>{});
}

// a + b: the sum's words and the carry out of the top word.
template <std::size_t N>
WordCarry add_words(const Words<N>& a, const Words<N>& b, Words<N>& sum) {
  UInt carry = add_carry(a[0], b[0]);
  sum[0] = a[0] + b[0];
  for (std::size_t j = 1; j < N; ++j) {
    WordCarry s = add_with_carry_in(a[j], b[j], carry);
    sum[j] = s.word;
    carry = s.carry;
  }
  return {sum[N - 1], carry};
}

// a - b modulo 2^(32N) into `difference`; returns 1 when a >= b (no borrow), else 0.
template <std::size_t N>
UInt subtract_words(const Words<N>& a, const Words<N>& b, Words<N>& difference) {
  UInt carry(1u);
  for (std::size_t j = 0; j < N; ++j) {
    WordCarry s = add_with_carry_in(a[j], ~b[j], carry);
    difference[j] = s.word;
    carry = s.carry;
  }
  return carry;
}

// a - p for a constant p into `difference`; returns 1 when a >= p (no borrow), else 0.
template <std::size_t N>
UInt subtract_constant(const Words<N>& a, const Limbs<N>& p, Words<N>& difference) {
  // The low limb adds 2^32 - p[0] (p is odd, so p[0] != 0), which carries exactly when
  // a[0] >= p[0]: the same as adding ~p[0] with a carry in of 1, one instruction shorter.
  UInt low_negated(0u - p[0]);
  difference[0] = a[0] + low_negated;
  UInt carry = add_carry(a[0], low_negated);
  for (std::size_t j = 1; j < N; ++j) {
    WordCarry s = add_with_carry_in(a[j], UInt(~p[j]), carry);
    difference[j] = s.word;
    carry = s.carry;
  }
  return carry;
}

// a mod p for a < 2p, where `overflow` (0 or 1, when given) is a word above a's N words:
// a - p when that does not borrow or a overflowed, else a.
template <std::size_t N>
Words<N> reduce_once(const Words<N>& a, const Limbs<N>& p, const std::optional<UInt>& overflow = std::nullopt) {
  Words<N> reduced = a;
  UInt no_borrow = subtract_constant(a, p, reduced);
  Bool take = overflow ? (no_borrow | *overflow) != 0u : no_borrow != 0u;
  Words<N> result = a;
  for (std::size_t j = 0; j < N; ++j) result[j] = select(take, reduced[j], a[j]);
  return result;
}

// a + p when `no_borrow` (what subtract_words returned) is 0, else a; the carry out of the
// top word is dropped (it cancels the borrow).
template <std::size_t N>
Words<N> add_constant_after_borrow(const Words<N>& a, const Limbs<N>& p, const UInt& no_borrow) {
  UInt mask = no_borrow - 1u;  // all ones after a borrow, else zero
  Words<N> addend = a;
  for (std::size_t j = 0; j < N; ++j) addend[j] = UInt(p[j]) & mask;
  Words<N> sum = a;
  add_words(a, addend, sum);
  return sum;
}

// Whether all words are zero: one OR chain and one comparison.
template <std::size_t N>
Bool all_zero(const Words<N>& a) {
  UInt any = a[0];
  for (std::size_t j = 1; j < N; ++j) any = any | a[j];
  return any == 0u;
}

// Whether a and b are equal word for word.
template <std::size_t N>
Bool equal_words(const Words<N>& a, const Words<N>& b) {
  UInt differences = a[0] ^ b[0];
  for (std::size_t j = 1; j < N; ++j) differences = differences | (a[j] ^ b[j]);
  return differences == 0u;
}

}  // namespace sprig::field::detail
