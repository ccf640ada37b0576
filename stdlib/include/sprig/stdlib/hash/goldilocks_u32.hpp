// The Goldilocks field on pairs of uint32 (uvec2: x = low word, y = high word), for devices
// without the Int64 capability: the same interface and the same canonical results as
// Goldilocks64 (goldilocks.hpp), so field-generic code runs on either.
#pragma once

#include <array>
#include <cstdint>

#include "sprig/stdlib/hash/goldilocks.hpp"

namespace sprig::hash {

struct Goldilocks32 {
  using Host = uvec2;
  using Element = UVec2;
  using Word = UInt;
  static constexpr const char* name = "gl32";

  static Element make(const Word& low, const Word& high) { return Element(low, high); }

  static Element constant(std::uint64_t value) {
    value %= goldilocks::modulus;
    return Element(uvec2{std::uint32_t(value), std::uint32_t(value >> 32)});
  }

  static Element canonical(const Element& x) { return add_epsilon_if(at_least_modulus(x.x(), x.y()), x.x(), x.y()); }

  static Element from_words(const Word& low, const Word& high) { return canonical(make(low, high)); }
  static Element from_u32(const Word& value) { return make(value, Word(0u)); }
  static std::array<Word, 2> to_words(const Element& x) { return {x.x(), x.y()}; }

  static Element add(const Element& a, const Element& b) {
    auto [low, high, carry] = add64(a.x(), a.y(), b.x(), b.y());
    // As in Goldilocks64::add: a carry or a sum >= p both mean "add epsilon modulo 2^64".
    return add_epsilon_if(carry || at_least_modulus(low, high), low, high);
  }

  static Element sub(const Element& a, const Element& b) {
    auto [low, high, borrow] = sub64(a.x(), a.y(), b.x(), b.y());
    auto [l2, h2, unused] = sub64(low, high, select(borrow, Word(0xffffffffu), Word(0u)), Word(0u));
    (void)unused;
    return make(l2, h2);
  }

  // One device function per product (see Goldilocks64::mul_callable).
  static const auto& mul_callable() {
    return sprig::detail::cached_callable("goldilocks32_mul", [] {
      return callable("goldilocks32_mul", [](UVec2 a, UVec2 b) -> UVec2 { return mul_product(a, b); });
    });
  }
  static Element mul(const Element& a, const Element& b) { return mul_callable()(a, b); }
  static Element square(const Element& a) { return mul(a, a); }

  // sum_j coefficients[j] * x[j] for small constant coefficients: each product is at most
  // 96 bits and is reduced on its own, then the products are added in the field.
  template <std::size_t N>
  static Element dot_small(const std::array<Element, N>& x, const std::array<std::uint32_t, N>& coefficients) {
    Element sum = mul_small(x[0], coefficients[0]);
    for (std::size_t j = 1; j < N; ++j) sum = add(sum, mul_small(x[j], coefficients[j]));
    return sum;
  }

  // x * c for a constant c < 2^32.
  static Element mul_small(const Element& x, std::uint32_t c) {
    Word r0 = x.x() * c;
    Word m = mul_hi(x.x(), Word(c));
    Word t = x.y() * c;
    Word r1 = m + t;
    Word r2 = mul_hi(x.y(), Word(c)) + add_carry(m, t);
    return reduce128(r0, r1, r2, Word(0u));
  }

  // (r3 r2 r1 r0) mod p, canonical: 2^64 = epsilon and 2^96 = -1 (mod p).
  static Element reduce128(const Word& r0, const Word& r1, const Word& r2, const Word& r3) {
    auto [a0, a1, borrow] = sub64(r0, r1, r3, Word(0u));
    auto [b0, b1, unused] = sub64(a0, a1, select(borrow, Word(0xffffffffu), Word(0u)), Word(0u));
    (void)unused;
    // r2 * epsilon = r2 * 2^32 - r2, below 2^64.
    Word e0 = Word(0u) - r2;
    Word e1 = r2 - select(r2 != 0u, Word(1u), Word(0u));
    auto [c0, c1, carry] = add64(b0, b1, e0, e1);
    // After a carry the wrapped sum is below (2^32 - 1)^2: adding epsilon cannot carry.
    auto [d0, d1, unused2] = add64(c0, c1, select(carry, Word(0xffffffffu), Word(0u)), Word(0u));
    (void)unused2;
    return add_epsilon_if(at_least_modulus(d0, d1), d0, d1);
  }

 private:
  struct Wide {
    Word low, high;
    Bool flag;  // the carry or borrow out of 64 bits
  };

  static Wide add64(const Word& a0, const Word& a1, const Word& b0, const Word& b1) {
    Word low = a0 + b0;
    Word c0 = add_carry(a0, b0);
    Word h = a1 + b1;
    Word high = h + c0;
    return {low, high, (add_carry(a1, b1) | add_carry(h, c0)) != 0u};
  }

  static Wide sub64(const Word& a0, const Word& a1, const Word& b0, const Word& b1) {
    Word low = a0 - b0;
    Word b = select(a0 < b0, Word(1u), Word(0u));
    Word h = a1 - b1;
    return {low, h - b, (a1 < b1) || (h < b)};
  }

  // (high, low) >= p: the high word is all ones and the low word is not zero.
  static Bool at_least_modulus(const Word& low, const Word& high) { return (high == 0xffffffffu) && (low != 0u); }

  // (high, low) + epsilon modulo 2^64 where `condition` holds: what subtracting p is.
  static Element add_epsilon_if(const Bool& condition, const Word& low, const Word& high) {
    auto [l, h, unused] = add64(low, high, select(condition, Word(0xffffffffu), Word(0u)), Word(0u));
    (void)unused;
    return make(l, h);
  }

  static Element mul_product(const Element& a, const Element& b) {
    Word a0 = a.x(), a1 = a.y(), b0 = b.x(), b1 = b.y();
    // Schoolbook 64 x 64 -> 128 bits from four 32 x 32 -> 64 products.
    Word p00l = a0 * b0, p00h = mul_hi(a0, b0);
    Word p01l = a0 * b1, p01h = mul_hi(a0, b1);
    Word p10l = a1 * b0, p10h = mul_hi(a1, b0);
    Word p11l = a1 * b1, p11h = mul_hi(a1, b1);
    Word s1 = p00h + p01l;
    Word k1 = add_carry(p00h, p01l);
    Word r1 = s1 + p10l;
    k1 = k1 + add_carry(s1, p10l);  // 0..2, carried into word 2
    Word s2 = p01h + p10h;
    Word k2 = add_carry(p01h, p10h);
    Word s3 = s2 + p11l;
    k2 = k2 + add_carry(s2, p11l);
    Word r2 = s3 + k1;
    k2 = k2 + add_carry(s3, k1);  // the full product is < 2^128, so word 3 cannot overflow
    Word r3 = p11h + k2;
    return reduce128(p00l, r1, r2, r3);
  }

};

}  // namespace sprig::hash
