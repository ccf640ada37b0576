// The Montgomery product on 64-bit limbs: the same CIOS as montgomery_product.hpp (Koc,
// Acar and Kaliski, 1996) over N/2 words of 64 bits, each limb product an OpUMulExtended on
// 64-bit operands. It reads and returns the 32-bit words the field stores (two to a limb,
// least significant first), and R is 2^(32 N) as there: the results are the 32-bit
// product's, word for word. Where the device multiplies 64-bit words natively or splits
// them well, a quarter as many limb products win (product_limbs.hpp has the measurements).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "sprig/stdlib/field/limb_chains.hpp"
#include "sprig/stdlib/field/modulus.hpp"

namespace sprig::field::detail {

template <std::size_t N>
using WideWords = std::array<ULong, N>;

inline ULong wide_carry(const Bool& carried) { return select(carried, ULong(1ull), ULong(0ull)); }

// x + y z + carry as (high, low) words; the sum fits 128 bits.
inline std::pair<ULong, ULong> wide_multiply_add(const ULong& x, const ULong& y, const ULong& z, const ULong& carry) {
  ULong low = y * z, high = mul_hi(y, z);
  ULong s1 = x + low;
  ULong s2 = s1 + carry;
  return {high + wide_carry(s1 < x) + wide_carry(s2 < s1), s2};
}

// The modulus's 64-bit limbs and -p^-1 mod 2^64 (Newton's iteration: each step doubles the
// low bits that are right).
template <PrimeModulus P>
struct WideModulus {
  static constexpr std::size_t limbs = FieldConstants<P>::limbs / 2;
  static constexpr std::array<std::uint64_t, limbs> modulus = [] {
    std::array<std::uint64_t, limbs> m{};
    for (std::size_t j = 0; j < limbs; ++j)
      m[j] = FieldConstants<P>::modulus[2 * j] | std::uint64_t(FieldConstants<P>::modulus[2 * j + 1]) << 32;
    return m;
  }();
  static constexpr std::uint64_t inverse = [] {
    std::uint64_t x = 1;
    for (int i = 0; i < 6; ++i) x *= 2 - modulus[0] * x;
    return 0 - x;
  }();
};

// a * b * R^-1 mod p, canonical, for a < p and b < R (N even).
template <PrimeModulus P>
Words<FieldConstants<P>::limbs> montgomery_product_wide(const Words<FieldConstants<P>::limbs>& a32,
                                                        const Words<FieldConstants<P>::limbs>& b32) {
  using K = WideModulus<P>;
  constexpr std::size_t N = K::limbs;
  static_assert(FieldConstants<P>::limbs % 2 == 0, "64-bit limbs need an even number of 32-bit ones");
  auto widen = [](const Words<2 * N>& w) {
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      return WideWords<N>{(cast<std::uint64_t>(w[2 * J]) | (cast<std::uint64_t>(w[2 * J + 1]) << 32ull))...};
    }(std::make_index_sequence<N>{});
  };
  const WideWords<N> a = widen(a32), b = widen(b32);
  WideWords<N> t = a;  // every word is written before it is read
  ULong top(0ull);     // t[N]
  for (std::size_t i = 0; i < N; ++i) {
    ULong carry(0ull);
    for (std::size_t j = 0; j < N; ++j) std::tie(carry, t[j]) = wide_multiply_add(i == 0 ? ULong(0ull) : t[j], a[j], b[i], carry);
    ULong sum = (i == 0 ? ULong(0ull) : top) + carry;
    ULong overflow = i == 0 ? ULong(0ull) : wide_carry(sum < carry);  // t[N + 1]
    top = sum;
    ULong m = t[0] * ULong(K::inverse);
    ULong dropped(0ull);
    std::tie(carry, dropped) = wide_multiply_add(t[0], m, ULong(K::modulus[0]), ULong(0ull));
    for (std::size_t j = 1; j < N; ++j)
      std::tie(carry, t[j - 1]) = wide_multiply_add(t[j], m, ULong(K::modulus[j]), carry);
    ULong high = top + carry;
    t[N - 1] = high;
    top = overflow + wide_carry(high < carry);
  }
  // t (with top) < 2p: subtract p where t >= p.
  std::array<ULong, N> difference = t;
  ULong borrow(0ull);
  for (std::size_t j = 0; j < N; ++j) {
    ULong d = t[j] - ULong(K::modulus[j]);
    difference[j] = d - borrow;
    borrow = wide_carry(t[j] < ULong(K::modulus[j]) || d < borrow);
  }
  Bool keep = top == 0ull && borrow != 0ull;  // t < p
  return [&]<std::size_t... J>(std::index_sequence<J...>) {
    auto word = [&](std::size_t w) {
      ULong limb = select(keep, t[w / 2], difference[w / 2]);
      return cast<std::uint32_t>(w % 2 == 0 ? limb : limb >> 32ull);
    };
    return Words<2 * N>{word(J)...};
  }(std::make_index_sequence<2 * N>{});
}

}  // namespace sprig::field::detail
