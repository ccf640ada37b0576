// The Goldilocks field (p = 2^64 - 2^32 + 1) as device functions on the DSL's uint64 (the
// Int64 capability). goldilocks_u32.hpp offers the same interface on pairs of uint32 for
// devices without Int64; code generic over the field (Rescue Prime) takes either as `F`.
//
// Elements on the device are always canonical (< p): loading reduces once, and every
// operation returns a canonical value, so equality of words is equality of elements. In
// buffers an element is two little-endian uint32 words (low, high), like its 8 bytes.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

namespace goldilocks {
inline constexpr std::uint64_t modulus = 0xffffffff00000001ull;
// 2^64 mod p = 2^32 - 1: what a carry out of 64 bits is worth, and what subtracting p
// modulo 2^64 adds.
inline constexpr std::uint64_t epsilon = 0xffffffffull;
}  // namespace goldilocks

// Field arithmetic on uint64 device values.
struct Goldilocks64 {
  using Host = std::uint64_t;
  using Element = ULong;
  static constexpr const char* name = "gl64";

  // A host constant; reduced here, so any 64-bit value is accepted.
  static Element constant(std::uint64_t value) { return Element(value % goldilocks::modulus); }

  // The element whose canonical value is `x` mod p, for any 64-bit `x` (one subtraction
  // suffices: 2^64 - 1 - p < p).
  static Element canonical(const Element& x) {
    return select(x >= goldilocks::modulus, x - goldilocks::modulus, x);
  }

  // The element of the two buffer words (low, high), reduced.
  static Element from_words(const UInt& low, const UInt& high) {
    return canonical(cast<std::uint64_t>(low) | (cast<std::uint64_t>(high) << 32u));
  }
  // A small integer (an element count) as an element.
  static Element from_u32(const UInt& value) { return cast<std::uint64_t>(value); }
  static std::array<UInt, 2> to_words(const Element& x) {
    return {cast<std::uint32_t>(x & 0xffffffffull), cast<std::uint32_t>(x >> 32u)};
  }

  static Element add(const Element& a, const Element& b) {
    Element s = a + b;
    // A carry out of 64 bits is worth epsilon; a sum in [p, 2^64) loses p, which modulo
    // 2^64 is adding epsilon too. Both cannot happen at once (a wrapped sum is < p).
    Bool over = (s < a) || (s >= goldilocks::modulus);
    return s + select(over, Element(goldilocks::epsilon), Element(std::uint64_t(0)));
  }

  static Element sub(const Element& a, const Element& b) {
    // A borrow means the wrapped difference is 2^64 too large: 2^64 - p = epsilon too much.
    return (a - b) - select(a < b, Element(goldilocks::epsilon), Element(std::uint64_t(0)));
  }

  // The product is a real device function: the Rescue permutation multiplies thousands of
  // times, and one call per product keeps the kernel small enough to compile quickly.
  static const auto& mul_callable() {
    return sprig::detail::cached_callable("goldilocks64_mul", [] {
      return callable("goldilocks64_mul", [](ULong a, ULong b) -> ULong { return reduce128(a * b, mul_hi(a, b)); });
    });
  }
  static Element mul(const Element& a, const Element& b) { return mul_callable()(a, b); }
  static Element square(const Element& a) { return mul(a, a); }

  // sum_j coefficients[j] * x[j] for small constant coefficients (at most 2^24 in all): the
  // halves of each element are accumulated separately without overflow, then one reduction.
  template <std::size_t N>
  static Element dot_small(const std::array<Element, N>& x, const std::array<std::uint32_t, N>& coefficients) {
    Element low_sum(std::uint64_t(0)), high_sum(std::uint64_t(0));
    for (std::size_t j = 0; j < N; ++j) {
      low_sum = low_sum + (x[j] & 0xffffffffull) * std::uint64_t(coefficients[j]);
      high_sum = high_sum + (x[j] >> 32u) * std::uint64_t(coefficients[j]);
    }
    // value = high_sum * 2^32 + low_sum, as a 128-bit (high, low) pair.
    Element low = (high_sum << 32u) + low_sum;
    Element high = (high_sum >> 32u) + select(low < low_sum, Element(std::uint64_t(1)), Element(std::uint64_t(0)));
    return reduce128(low, high);
  }

  // (high * 2^64 + low) mod p, canonical. 2^64 = epsilon and 2^96 = -1 (mod p).
  static Element reduce128(const Element& low, const Element& high) {
    Element high_high = high >> 32u;
    Element high_low = high & 0xffffffffull;
    Element t0 = low - high_high;
    t0 = t0 - select(low < high_high, Element(goldilocks::epsilon), Element(std::uint64_t(0)));
    Element t1 = (high_low << 32u) - high_low;  // high_low * epsilon, < 2^64
    Element t2 = t0 + t1;
    // After a carry the wrapped sum is < t1 <= (2^32 - 1)^2, so adding epsilon cannot carry.
    t2 = t2 + select(t2 < t1, Element(goldilocks::epsilon), Element(std::uint64_t(0)));
    return canonical(t2);
  }

};

// x^exponent for a constant exponent, by square-and-multiply unrolled at trace time.
template <class F>
typename F::Element field_pow(const typename F::Element& x, std::uint64_t exponent) {
  if (exponent == 0) return F::constant(1);
  int top = 63;
  while (((exponent >> top) & 1u) == 0) --top;
  typename F::Element result = x;
  for (int bit = top - 1; bit >= 0; --bit) {
    result = F::square(result);
    if ((exponent >> bit) & 1u) result = F::mul(result, x);
  }
  return result;
}

}  // namespace sprig::hash
