// Unsigned big integers as arrays of 32-bit limbs, least significant first, with the few
// operations the field code needs on the host: parsing moduli and elements from text,
// comparing, adding, subtracting, multiplying, dividing, doubling modulo p and the
// Montgomery product. Everything is constexpr, so the constants of a field (R mod p, R^2
// mod p, -p^-1 mod 2^32, ...) are computed by the compiler from the modulus's text and
// never written out by hand.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sprig::field::detail {

template <std::size_t N>
using Limbs = std::array<std::uint32_t, N>;

// The widest number the parser accepts: 2048 bits.
inline constexpr std::size_t max_parsed_limbs = 64;

template <std::size_t N>
constexpr bool is_zero(const Limbs<N>& a) {
  for (std::uint32_t limb : a)
    if (limb != 0) return false;
  return true;
}

// -1, 0 or 1 as a is below, equal to or above b.
template <std::size_t N>
constexpr int compare(const Limbs<N>& a, const Limbs<N>& b) {
  for (std::size_t j = N; j-- > 0;)
    if (a[j] != b[j]) return a[j] < b[j] ? -1 : 1;
  return 0;
}

// a += b; returns the carry out.
template <std::size_t N>
constexpr std::uint32_t add_in_place(Limbs<N>& a, const Limbs<N>& b) {
  std::uint64_t carry = 0;
  for (std::size_t j = 0; j < N; ++j) {
    std::uint64_t sum = std::uint64_t(a[j]) + b[j] + carry;
    a[j] = std::uint32_t(sum);
    carry = sum >> 32;
  }
  return std::uint32_t(carry);
}

// a -= b; returns the borrow out.
template <std::size_t N>
constexpr std::uint32_t subtract_in_place(Limbs<N>& a, const Limbs<N>& b) {
  std::uint32_t borrow = 0;
  for (std::size_t j = 0; j < N; ++j) {
    std::uint64_t difference = std::uint64_t(a[j]) - b[j] - borrow;
    a[j] = std::uint32_t(difference);
    borrow = std::uint32_t(difference >> 63);
  }
  return borrow;
}

// a * factor + addend in place; returns what overflows the top limb.
template <std::size_t N>
constexpr std::uint32_t multiply_add_in_place(Limbs<N>& a, std::uint32_t factor, std::uint32_t addend) {
  std::uint64_t carry = addend;
  for (std::size_t j = 0; j < N; ++j) {
    std::uint64_t product = std::uint64_t(a[j]) * factor + carry;
    a[j] = std::uint32_t(product);
    carry = product >> 32;
  }
  return std::uint32_t(carry);
}

// 2a mod p for a < p.
template <std::size_t N>
constexpr Limbs<N> double_mod(const Limbs<N>& a, const Limbs<N>& p) {
  Limbs<N> twice = a;
  std::uint32_t carry = add_in_place(twice, a);
  if (carry != 0 || compare(twice, p) >= 0) subtract_in_place(twice, p);
  return twice;
}

// x^-1 mod 2^32 for odd x, by Newton's iteration (each step doubles the correct bits).
constexpr std::uint32_t inverse_mod_2_32(std::uint32_t x) {
  std::uint32_t inverse = x;  // right in the low 3 bits: x * x = 1 mod 8 for odd x
  for (int step = 0; step < 4; ++step) inverse *= 2u - x * inverse;
  return inverse;
}

// Number of limbs up to the most significant non-zero one (at least 1).
template <std::size_t N>
constexpr std::size_t significant_limbs(const Limbs<N>& a) {
  std::size_t count = N;
  while (count > 1 && a[count - 1] == 0) --count;
  return count;
}

// Number of bits up to the most significant set bit (0 for zero).
template <std::size_t N>
constexpr unsigned bit_length(const Limbs<N>& a) {
  for (std::size_t j = N; j-- > 0;)
    for (unsigned bit = 32; bit-- > 0;)
      if ((a[j] >> bit) & 1u) return unsigned(32 * j + bit + 1);
  return 0;
}

// The low M limbs of a (zero-extended when M > N).
template <std::size_t M, std::size_t N>
constexpr Limbs<M> resize(const Limbs<N>& a) {
  Limbs<M> r{};
  for (std::size_t j = 0; j < M && j < N; ++j) r[j] = a[j];
  return r;
}

// a * b, all N + M limbs of it.
template <std::size_t N, std::size_t M>
constexpr Limbs<N + M> multiply_wide(const Limbs<N>& a, const Limbs<M>& b) {
  Limbs<N + M> product{};
  for (std::size_t i = 0; i < N; ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < M; ++j) {
      std::uint64_t sum = std::uint64_t(product[i + j]) + std::uint64_t(a[i]) * b[j] + carry;
      product[i + j] = std::uint32_t(sum);
      carry = sum >> 32;
    }
    product[i + M] = std::uint32_t(carry);
  }
  return product;
}

// The quotient and remainder of a / b.
template <std::size_t N>
struct Division {
  Limbs<N> quotient{}, remainder{};
};

// a / b for b != 0 (a zero divisor throws), one bit at a time: the host computes a few
// constants with it, never a kernel.
template <std::size_t N>
constexpr Division<N> divide(const Limbs<N>& a, const Limbs<N>& b) {
  if (is_zero(b)) throw std::invalid_argument("a division by zero");
  Division<N> result;
  for (unsigned bit = bit_length(a); bit-- > 0;) {
    // remainder = 2 remainder + a's bit; the bit shifted out of the top makes it >= b.
    std::uint32_t out = result.remainder[N - 1] >> 31;
    for (std::size_t j = N; j-- > 1;) result.remainder[j] = (result.remainder[j] << 1) | (result.remainder[j - 1] >> 31);
    result.remainder[0] = (result.remainder[0] << 1) | ((a[bit / 32] >> (bit % 32)) & 1u);
    if (out != 0 || compare(result.remainder, b) >= 0) {
      subtract_in_place(result.remainder, b);
      result.quotient[bit / 32] |= 1u << (bit % 32);
    }
  }
  return result;
}

// The value of `text`: decimal digits, or hexadecimal digits after 0x / 0X. Throws
// std::invalid_argument on anything else, on an empty number or above 2048 bits (in a
// constant expression the throw is a compile error pointing here).
constexpr Limbs<max_parsed_limbs> parse_number(std::string_view text) {
  Limbs<max_parsed_limbs> value{};
  std::uint32_t base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) throw std::invalid_argument("an empty number");
  for (char c : text) {
    std::uint32_t digit = 0;
    if (c >= '0' && c <= '9') digit = std::uint32_t(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') digit = std::uint32_t(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') digit = std::uint32_t(c - 'A' + 10);
    else if (base == 16) throw std::invalid_argument("a character that is no hexadecimal digit");
    else throw std::invalid_argument("a character that is no decimal digit");
    if (multiply_add_in_place(value, base, digit) != 0) throw std::invalid_argument("a number above 2048 bits");
  }
  return value;
}

// "0x" and the hexadecimal digits of a, without leading zeros.
template <std::size_t N>
std::string to_hex(const Limbs<N>& a) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (std::size_t j = N; j-- > 0;)
    for (int nibble = 7; nibble >= 0; --nibble) {
      char c = digits[(a[j] >> (4 * nibble)) & 15u];
      if (!text.empty() || c != '0') text.push_back(c);
    }
  return "0x" + (text.empty() ? std::string("0") : text);
}

// a * b * 2^(-32N) mod p (the Montgomery product, CIOS) for odd p with N limbs,
// p_inverse = -p^-1 mod 2^32, a < p and any b below 2^(32N). The result is below p.
template <std::size_t N>
constexpr Limbs<N> montgomery_product(const Limbs<N>& a, const Limbs<N>& b, const Limbs<N>& p,
                                      std::uint32_t p_inverse) {
  std::array<std::uint32_t, N + 2> t{};
  for (std::size_t i = 0; i < N; ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < N; ++j) {
      std::uint64_t sum = std::uint64_t(t[j]) + std::uint64_t(a[j]) * b[i] + carry;
      t[j] = std::uint32_t(sum);
      carry = sum >> 32;
    }
    std::uint64_t top = std::uint64_t(t[N]) + carry;
    t[N] = std::uint32_t(top);
    t[N + 1] = std::uint32_t(top >> 32);
    // Adding m * p makes the low limb zero; dropping it divides by 2^32.
    std::uint32_t m = t[0] * p_inverse;
    carry = (std::uint64_t(t[0]) + std::uint64_t(m) * p[0]) >> 32;
    for (std::size_t j = 1; j < N; ++j) {
      std::uint64_t sum = std::uint64_t(t[j]) + std::uint64_t(m) * p[j] + carry;
      t[j - 1] = std::uint32_t(sum);
      carry = sum >> 32;
    }
    top = std::uint64_t(t[N]) + carry;
    t[N - 1] = std::uint32_t(top);
    t[N] = t[N + 1] + std::uint32_t(top >> 32);
  }
  // t < 2p: one subtraction at most.
  Limbs<N> result = resize<N>(t);
  if (t[N] != 0 || compare(result, p) >= 0) subtract_in_place(result, p);
  return result;
}

}  // namespace sprig::field::detail
