// The semantics table itself (semantics.hpp), with the values both backends must produce.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "float_rule_cases.hpp"
#include "sprig/dsl/semantics.hpp"

namespace sem = sprig::semantics;
using i32 = std::int32_t;
using u32 = std::uint32_t;
using i64 = std::int64_t;
using u64 = std::uint64_t;

TEST_CASE("signed division truncates toward zero and the remainder takes the dividend's sign") {
  CHECK(sem::div<i32>(-7, 2) == -3);
  CHECK(sem::rem<i32>(-7, 2) == -1);
  CHECK(sem::rem<i32>(7, -2) == 1);
  CHECK(sem::div<u32>(0xFFFFFFF0u, 16u) == 268435455u);
}

TEST_CASE("division by zero gives all ones and the remainder gives the dividend") {
  CHECK(sem::div<u32>(5u, 0u) == 0xFFFFFFFFu);
  CHECK(sem::div<i32>(5, 0) == -1);
  CHECK(sem::rem<u32>(5u, 0u) == 5u);
  CHECK(sem::rem<i64>(-5, 0) == -5);
}

TEST_CASE("the most negative value divided by -1 is itself, with remainder 0") {
  CHECK(sem::div<i32>(std::numeric_limits<i32>::min(), -1) == std::numeric_limits<i32>::min());
  CHECK(sem::rem<i32>(std::numeric_limits<i32>::min(), -1) == 0);
}

TEST_CASE("floor_div rounds toward minus infinity and mod takes the divisor's sign") {
  CHECK(sem::floor_div<i32>(-7, 2) == -4);
  CHECK(sem::mod<i32>(-7, 2) == 1);
  CHECK(sem::floor_div<i32>(7, -2) == -4);
  CHECK(sem::mod<i32>(7, -2) == -1);
  CHECK(sem::floor_div<i32>(-7, -2) == 3);
  CHECK(sem::mod<i32>(-7, -2) == -1);
  CHECK(sem::mod<i32>(-1, 8) == 7);
  CHECK(sem::mod<i32>(-8, 8) == 0);
  CHECK(sem::floor_div<i64>(-1, 8) == -1);
  CHECK(sem::mod<u32>(0xFFFFFFFFu, 8u) == 7u);  // unsigned: the same as %
  CHECK(sem::floor_div<u32>(0xFFFFFFFFu, 8u) == 0x1FFFFFFFu);
  CHECK(sem::mod<i32>(std::numeric_limits<i32>::min(), 3) == 1);
  CHECK(sem::floor_div<i32>(std::numeric_limits<i32>::min(), 3) == -715827883);
  CHECK(sem::mod<i32>(std::numeric_limits<i32>::max(), std::numeric_limits<i32>::min()) == -1);
}

TEST_CASE("floor_div and mod keep / and %'s conventions for 0 and MIN / -1") {
  CHECK(sem::floor_div<i32>(-5, 0) == -1);
  CHECK(sem::mod<i32>(-5, 0) == -5);
  CHECK(sem::floor_div<u64>(5, 0) == ~u64(0));
  CHECK(sem::mod<u64>(5, 0) == 5);
  CHECK(sem::floor_div<i64>(std::numeric_limits<i64>::min(), -1) == std::numeric_limits<i64>::min());
  CHECK(sem::mod<i64>(std::numeric_limits<i64>::min(), -1) == 0);
  // a == floor_div(a, b) * b + mod(a, b), wrapping, for every pair, divisor 0 included.
  const i32 values[] = {0, 1, -1, 2, -2, 7, -7, std::numeric_limits<i32>::min(), std::numeric_limits<i32>::max()};
  for (i32 a : values)
    for (i32 b : values) CHECK(sem::add(sem::mul(sem::floor_div(a, b), b), sem::mod(a, b)) == a);
}

TEST_CASE("float mod is a - b * floor(a / b), as GLSL's") {
  CHECK(sem::mod(-7.5f, 2.0f) == 0.5f);
  CHECK(sem::mod(7.5f, -2.0f) == -0.5f);
  CHECK(sem::floor_div(-7.5f, 2.0f) == -4.0f);
  CHECK(std::isnan(sem::mod(1.0f, 0.0f)));
}

TEST_CASE("shift counts are taken modulo the width; signed >> is arithmetic") {
  CHECK(sem::shl<u32>(1u, 33) == 2u);
  CHECK(sem::shr<u32>(0x80000000u, 31) == 1u);
  CHECK(sem::shr<i32>(i32(0x80000000u), 31) == -1);
  CHECK(sem::shl<u64>(1, 64) == 1);
  i32 a = 5;
  i32 n = ~a;
  CHECK(((sem::shl<i32>(n, 3) & sem::shr<i32>(n, 3)) ^ (sem::shl<i32>(n, 3) | sem::shr<i32>(n, 3))) == 47);
}

TEST_CASE("rotates, multiply-high and carries") {
  CHECK(sem::rotl<u32>(0x80000001u, 1) == 3u);
  CHECK(sem::rotr<u32>(3u, 1) == 0x80000001u);
  CHECK(sem::rotl<u32>(1u, 32) == 1u);
  CHECK(sem::mul_hi<u32>(0xFFFFFFFFu, 0xFFFFFFFFu) == 0xFFFFFFFEu);
  CHECK(sem::mul_hi<i32>(-1, 1) == -1);
  CHECK(sem::mul_hi<u64>(~u64(0), ~u64(0)) == ~u64(0) - 1);
  CHECK(sem::mul_hi<i64>(std::numeric_limits<i64>::min(), 2) == -1);
  CHECK(sem::add_carry<u32>(0xFFFFFFFFu, 1u) == 1u);
  CHECK(sem::add_carry<u32>(1u, 1u) == 0u);
}

TEST_CASE("bit counting, reversal and byte swaps") {
  CHECK(sem::popcount<u32>(0xF0F0u) == 8u);
  CHECK(sem::count_leading_zeros<u32>(0u) == 32u);
  CHECK(sem::count_trailing_zeros<u64>(0u) == 64u);
  CHECK(sem::count_leading_zeros<u32>(1u) == 31u);
  CHECK(sem::bit_reverse<u32>(1u) == 0x80000000u);
  CHECK(sem::byte_swap<u32>(0x11223344u) == 0x44332211u);
  CHECK(sem::byte_swap<u64>(0x0102030405060708ull) == 0x0807060504030201ull);
}

TEST_CASE("bitfield extract sign-extends for signed types and clamps to the width") {
  CHECK(sem::bitfield_extract<u32>(0xABCD1234u, 16, 8) == 0xCDu);
  CHECK(sem::bitfield_extract<i32>(i32(0x0000F000), 12, 4) == -1);
  CHECK(sem::bitfield_extract<u32>(0xFFFFFFFFu, 28, 8) == 0xFu);
  CHECK(sem::bitfield_extract<u32>(0xFFFFFFFFu, 4, 0) == 0u);
  CHECK(sem::bitfield_insert<u32>(0u, 0xFFu, 4, 4) == 0xF0u);
  CHECK(sem::bitfield_insert<u32>(0u, 0xFFu, 30, 8) == 0xC0000000u);
}

TEST_CASE("float to integer truncates, saturates and maps NaN to zero") {
  CHECK(sem::float_to_int<i32>(-2.7f) == -2);
  CHECK(sem::float_to_int<i32>(3e9f) == std::numeric_limits<i32>::max());
  CHECK(sem::float_to_int<i32>(-3e9f) == std::numeric_limits<i32>::min());
  CHECK(sem::float_to_int<u32>(-5.0f) == 0u);
  CHECK(sem::float_to_int<u32>(5e9f) == 0xFFFFFFFFu);
  CHECK(sem::float_to_int<i32>(std::nanf("")) == 0);
  CHECK(sem::float_to_int<u64>(1e20f) == ~u64(0));
}

TEST_CASE("rounding, fract, abs and sign of halves, signed zeros, NaN and infinities") {
  for (const sprig::test::RoundingCase& c : sprig::test::rounding_cases()) {
    INFO("x = " << c.x << (std::signbit(c.x) ? " (negative)" : ""));
    CHECK(sprig::test::same_float(sem::floor(c.x), c.floor));
    CHECK(sprig::test::same_float(sem::ceil(c.x), c.ceil));
    CHECK(sprig::test::same_float(sem::trunc(c.x), c.trunc));
    CHECK(sprig::test::same_float(sem::round_even(c.x), c.round));
    CHECK(sprig::test::same_float(sem::fract(c.x), c.fract));
    CHECK(sprig::test::same_float(sem::abs(c.x), c.abs));
    CHECK(sprig::test::same_float(sem::sign(c.x), c.sign));
  }
}

TEST_CASE("min, max, clamp and step compare and select as GLSL writes them, also for NaN and signed zeros") {
  for (const sprig::test::ChoiceCase& c : sprig::test::choice_cases()) {
    INFO("x = " << c.x << ", y = " << c.y << ", z = " << c.z);
    CHECK(sprig::test::same_float(sem::min(c.x, c.y), c.min));
    CHECK(sprig::test::same_float(sem::max(c.x, c.y), c.max));
    CHECK(sprig::test::same_float(sem::step(c.x, c.y), c.step));
    CHECK(sprig::test::same_float(sem::clamp(c.x, c.y, c.z), c.clamp));
  }
}

TEST_CASE("integer abs, sign, min, max and clamp wrap and respect signedness") {
  CHECK(sem::abs<i32>(std::numeric_limits<i32>::min()) == std::numeric_limits<i32>::min());
  CHECK(sem::abs<i64>(-5) == 5);
  CHECK(sem::abs<u32>(0xFFFFFFFFu) == 0xFFFFFFFFu);
  CHECK(sem::sign<i32>(-7) == -1);
  CHECK(sem::sign<i32>(0) == 0);
  CHECK(sem::sign<u64>(7) == 1);
  CHECK(sem::min<i32>(-1, 1) == -1);
  CHECK(sem::min<u32>(0xFFFFFFFFu, 1u) == 1u);
  CHECK(sem::max<i64>(-1, 1) == 1);
  CHECK(sem::clamp<i32>(5, 7, 3) == 3);  // lo > hi: hi
}
