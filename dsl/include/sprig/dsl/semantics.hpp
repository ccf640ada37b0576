// The one semantics table: what every operation means, bit for bit, on one scalar lane.
// The simulator evaluates exactly these functions; the SPIR-V emitter emits instruction
// sequences that compute the same results (compiler/src/emit_*.cpp cite the rule they
// follow). Differential tests prove the two agree on integers, and kernel tests on the
// float rules' edges (tests/kernels/float_rules_test.cpp).
//
// Rules where SPIR-V leaves a result undefined, and how sprig defines it:
//   * Shifts: the count is taken modulo the bit width (x << 33 == x << 1 for 32-bit x).
//     Signed >> is arithmetic, unsigned >> is logical.
//   * Rotates: the count is taken modulo the bit width.
//   * Division by zero: x / 0 == all ones (-1 for signed), x % 0 == x (as RISC-V defines).
//   * Signed overflow of division: MIN / -1 == MIN, MIN % -1 == 0.
//   * Signed + - * and unary - wrap (two's complement).
//   * / and % on signed integers truncate toward zero, like C++ (remainder has the sign of
//     the dividend).
//   * floor_div and mod round the quotient toward minus infinity instead, so a non-zero mod
//     has the divisor's sign (Python's // and %, SPIR-V OpSMod). They keep the conventions of
//     / and %: floor_div(x, 0) == all ones, mod(x, 0) == x, floor_div(MIN, -1) == MIN,
//     mod(MIN, -1) == 0; a == floor_div(a, b) * b + mod(a, b) for every a and b (wrapping).
//     For unsigned types they are / and %.
//   * Float mod(a, b) == a - b * floor(a / b) and floor_div(a, b) == floor(a / b), as GLSL's
//     mod, each operation rounded on its own.
//   * float -> integer conversion truncates toward zero and saturates: NaN -> 0, values
//     beyond the target range -> its min or max.
//   * integer -> float rounds to nearest even; float -> float is exact for f32.
//   * Float + - * / and sqrt: IEEE-754 binary32, round to nearest even, in precise-float
//     kernels (ir::Kernel::precise_floats; docs/language.md); plain kernels follow the device.
//   * Bitfield extract/insert: offset and count are taken as they are; offset + count
//     greater than the bit width is clamped (bits beyond the width read as zero / are not
//     written). A count of 0 extracts 0 and inserts nothing.
//   * count_leading_zeros(0) == count_trailing_zeros(0) == bit width.
//   * Bools in memory are 32-bit 0 or 1.
//   * round() rounds halves to even; floor, ceil and trunc are exact and a zero result keeps
//     the operand's sign (ceil(-0.5) == -0); fract(x) == x - floor(x).
//   * min, max, clamp and step compare and select as GLSL writes them (min(x, y) ==
//     y < x ? y : x): a NaN or a zero of the other sign picks the side the comparison
//     leaves. sign(x) is 1, -1 or +0 (also for -0 and NaN); abs clears a float's sign bit
//     and wraps for integers (abs(MIN) == MIN).
//     In precise-float kernels every device computes these exactly, but for sign(NaN),
//     which GLSL's FSign leaves to the device (docs/language.md). Plain kernels use
//     GLSL.std.450's instructions and declare no float controls: NaN and infinite
//     operands, the sign of a zero result and clamp with lo > hi give what the device
//     gives there, every other result is the table's.
#pragma once

#include <bit>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace sprig::semantics {

template <class T>
concept Integer = std::same_as<T, std::int32_t> || std::same_as<T, std::uint32_t> ||
                  std::same_as<T, std::int64_t> || std::same_as<T, std::uint64_t>;

template <Integer T>
constexpr unsigned bit_width_of = sizeof(T) * 8;

template <Integer T>
using unsigned_of = std::make_unsigned_t<T>;

template <Integer T>
constexpr T add(T a, T b) { return T(unsigned_of<T>(a) + unsigned_of<T>(b)); }
template <Integer T>
constexpr T sub(T a, T b) { return T(unsigned_of<T>(a) - unsigned_of<T>(b)); }
template <Integer T>
constexpr T mul(T a, T b) { return T(unsigned_of<T>(a) * unsigned_of<T>(b)); }
template <Integer T>
constexpr T neg(T a) { return T(unsigned_of<T>(0) - unsigned_of<T>(a)); }

template <Integer T>
constexpr T div(T a, T b) {
  if (b == 0) return T(~unsigned_of<T>(0));
  if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == -1) return a;
  }
  return a / b;
}

template <Integer T>
constexpr T rem(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
  }
  return a % b;
}

// Whether the truncated quotient of a / b must step down by one to be the floor: the
// remainder is non-zero and its sign differs from the divisor's.
template <Integer T>
constexpr bool floor_steps_down(T remainder, T b) {
  if constexpr (std::is_signed_v<T>) return remainder != 0 && (remainder < 0) != (b < 0);
  else return false;
}

template <Integer T>
constexpr T floor_div(T a, T b) {
  T q = div(a, b);
  return b != 0 && floor_steps_down(rem(a, b), b) ? T(q - 1) : q;  // q - 1 > MIN here
}

template <Integer T>
constexpr T mod(T a, T b) {
  T r = rem(a, b);
  return floor_steps_down(r, b) ? add(r, b) : r;  // b == 0: r == a, and adding 0 keeps it
}



template <Integer T>
constexpr unsigned shift_count(std::uint64_t count) { return unsigned(count & (bit_width_of<T> - 1)); }

template <Integer T>
constexpr T shl(T a, std::uint64_t count) { return T(unsigned_of<T>(a) << shift_count<T>(count)); }

template <Integer T>
constexpr T shr(T a, std::uint64_t count) { return T(a >> shift_count<T>(count)); }  // arithmetic for signed (C++20)

template <Integer T>
constexpr T rotl(T a, std::uint64_t count) { return T(std::rotl(unsigned_of<T>(a), int(shift_count<T>(count)))); }
template <Integer T>
constexpr T rotr(T a, std::uint64_t count) { return T(std::rotr(unsigned_of<T>(a), int(shift_count<T>(count)))); }

// High half of the double-width product, signed or unsigned by T.
template <Integer T>
constexpr T mul_hi(T a, T b) {
  if constexpr (sizeof(T) == 4) {
    using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    return T(std::uint64_t(Wide(a) * Wide(b)) >> 32);
  } else {
    using Wide = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return T((unsigned __int128)(Wide(a) * Wide(b)) >> 64);
  }
}

// Carry out of the unsigned addition of the bit patterns: 0 or 1.
template <Integer T>
constexpr T add_carry(T a, T b) { return T(unsigned_of<T>(unsigned_of<T>(a) + unsigned_of<T>(b)) < unsigned_of<T>(a)); }

template <Integer T>
constexpr T popcount(T a) { return T(std::popcount(unsigned_of<T>(a))); }
template <Integer T>
constexpr T count_leading_zeros(T a) { return T(std::countl_zero(unsigned_of<T>(a))); }
template <Integer T>
constexpr T count_trailing_zeros(T a) { return T(std::countr_zero(unsigned_of<T>(a))); }

template <Integer T>
constexpr T bit_reverse(T a) {
  unsigned_of<T> x = unsigned_of<T>(a), r = 0;
  for (unsigned i = 0; i < bit_width_of<T>; ++i) r |= ((x >> i) & 1u) << (bit_width_of<T> - 1 - i);
  return T(r);
}

template <Integer T>
constexpr T byte_swap(T a) {
  unsigned_of<T> x = unsigned_of<T>(a), r = 0;
  for (unsigned i = 0; i < sizeof(T); ++i) r |= ((x >> (8 * i)) & 0xffu) << (8 * (sizeof(T) - 1 - i));
  return T(r);
}

// Mask of `count` low bits, count clamped to the width.
template <Integer T>
constexpr unsigned_of<T> low_mask(std::uint64_t count) {
  return count >= bit_width_of<T> ? ~unsigned_of<T>(0) : (unsigned_of<T>(1) << count) - 1;
}

template <Integer T>
constexpr T bitfield_extract(T value, std::uint64_t offset, std::uint64_t count) {
  if (count == 0 || offset >= bit_width_of<T>) return 0;
  if (count > bit_width_of<T> - offset) count = bit_width_of<T> - offset;
  unsigned_of<T> bits = (unsigned_of<T>(value) >> offset) & low_mask<T>(count);
  if constexpr (std::is_signed_v<T>) {
    if (count < bit_width_of<T> && ((bits >> (count - 1)) & 1u)) bits |= ~low_mask<T>(count);
  }
  return T(bits);
}

template <Integer T>
constexpr T bitfield_insert(T base, T insert, std::uint64_t offset, std::uint64_t count) {
  if (count == 0 || offset >= bit_width_of<T>) return base;
  if (count > bit_width_of<T> - offset) count = bit_width_of<T> - offset;
  unsigned_of<T> mask = low_mask<T>(count) << offset;
  return T((unsigned_of<T>(base) & ~mask) | ((unsigned_of<T>(insert) << offset) & mask));
}

// float -> integer: truncate toward zero, saturate, NaN -> 0.
template <Integer T>
constexpr T float_to_int(float f) {
  if (f != f) return 0;
  // The bounds are exact powers of two, so these comparisons are exact in float.
  constexpr float upper = float(sizeof(T) == 4 ? (std::is_signed_v<T> ? 0x1p31 : 0x1p32)
                                               : (std::is_signed_v<T> ? 0x1p63 : 0x1p64));
  constexpr float lower = std::is_signed_v<T> ? -upper : 0.0f;
  if (f >= upper) return std::numeric_limits<T>::max();
  if (f < lower) return std::numeric_limits<T>::min();
  return T(f);
}

// ---- rounding and the float rules of GLSL.std.450's functions (floats; the functions that
// integers share take them too)
template <class T>
concept Number = Integer<T> || std::same_as<T, float>;

// Exact (IEEE-754 roundToIntegral toward -inf, +inf, zero): a zero result keeps the
// operand's sign (floor(-0) == -0, ceil(-0.5) == -0, trunc(-0.5) == -0); NaN and infinities
// stay.
inline float floor(float x) { return std::floor(x); }
inline float ceil(float x) { return std::ceil(x); }
inline float trunc(float x) { return std::trunc(x); }

// To the nearest integer, halves to the even neighbour (GLSL RoundEven, IEEE-754
// roundToIntegralTiesToEven): 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> -0.
inline float round_even(float x) {
  float away = std::round(x);  // halves away from zero
  if (std::fabs(away - x) != 0.5f) return away;
  return 2.0f * std::round(x * 0.5f);  // a half: x / 2 lies a quarter from an integer
}

// x - floor(x), rounded once: in [0, 1] (fract(-0x1p-30) == 1: the difference rounds up),
// +0 for -0 and integers, NaN for infinities.
inline float fract(float x) { return x - std::floor(x); }

// GLSL's min(x, y) = y < x ? y : x and max(x, y) = x < y ? y : x: when the comparison is
// false (equal operands such as +0 and -0, or a NaN) the result is x. So a NaN x
// propagates and a NaN y is dropped: min(NaN, 1) is NaN, min(1, NaN) is 1.
template <Number T>
constexpr T min(T x, T y) { return y < x ? y : x; }
template <Number T>
constexpr T max(T x, T y) { return x < y ? y : x; }
// min(max(x, lo), hi), also where lo > hi (the result is then hi).
template <Number T>
constexpr T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }

// 0 where x < edge, else 1: a NaN x or edge gives 1.
inline float step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }

// |x|: floats clear the sign bit (abs(-0) == +0; a NaN stays a NaN); signed integers wrap
// (abs(MIN) == MIN); unsigned integers are their own magnitude.
template <Number T>
constexpr T abs(T x) {
  if constexpr (std::is_same_v<T, float>) return std::fabs(x);
  else if constexpr (std::is_signed_v<T>) return x < 0 ? neg(x) : x;
  else return x;
}

// 1 where x > 0, -1 where x < 0, else 0: sign(-0) and sign(NaN) are +0.
template <Number T>
constexpr T sign(T x) {
  if constexpr (std::is_unsigned_v<T>) return x > T(0) ? T(1) : T(0);
  else return x > T(0) ? T(1) : x < T(0) ? T(-1) : T(0);
}

// Float floor_div and mod, as GLSL's mod: each operation rounded on its own.
inline float floor_div(float a, float b) { return floor(a / b); }
inline float mod(float a, float b) { return a - b * floor(a / b); }

}  // namespace sprig::semantics
