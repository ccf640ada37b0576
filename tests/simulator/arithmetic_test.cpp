// The interpreter's integer, float and bit operations, checked against values written out
// from the semantics table (semantics.hpp). Inputs come from buffers, so every value is
// computed by the interpreter, lane by lane.
#include <cmath>
#include <limits>

#include "sim_test_support.hpp"

using namespace sprig;
using simtest::outputs;

TEST_CASE("complements and shifts of int32: ((~a<<3)&(~a>>3))^((~a<<3)|(~a>>3)) == 47 for a = 5") {
  auto k = kernel("shift_mix", [](ReadBuffer<std::int32_t> in, WriteBuffer<std::int32_t> out) {
    Int n = ~Int(in[0]);
    out[0] = ((n << 3) & (n >> 3)) ^ ((n << 3) | (n >> 3));
  }, workgroup(1));
  auto in = simtest::device().upload(std::vector<std::int32_t>{5});
  CHECK(outputs<std::int32_t>(simtest::device(), k, 1, grid(1), in)[0] == 47);
}

TEST_CASE("unsigned division and remainder: 0xFFFFFFF0u / 16 == 268435455") {
  auto k = kernel("udiv", [](UInt a, WriteBuffer<std::uint32_t> out) {
    out[0] = a / 16u;
    out[1] = a % 7u;
    out[2] = a >> 4u;
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 3, grid(1), 0xFFFFFFF0u) ==
        std::vector<std::uint32_t>{268435455u, 2u, 0x0FFFFFFFu});
}

TEST_CASE("division by zero gives all ones and the remainder the dividend; MIN / -1 == MIN") {
  auto k = kernel("div_zero", [](ReadBuffer<std::int32_t> in, WriteBuffer<std::int32_t> out) {
    Int a = in[0], zero = in[1], minus_one = in[2], min = in[3];
    out[0] = a / zero;
    out[1] = a % zero;
    out[2] = min / minus_one;
    out[3] = min % minus_one;
    out[4] = cast<std::int32_t>(cast<std::uint32_t>(a) / cast<std::uint32_t>(zero));
    out[5] = cast<std::int32_t>(cast<std::uint32_t>(a) % cast<std::uint32_t>(zero));
    out[6] = (-a) / 2;
    out[7] = (-a) % 2;
  }, workgroup(1));
  const std::int32_t min = std::numeric_limits<std::int32_t>::min();
  auto in = simtest::device().upload(std::vector<std::int32_t>{7, 0, -1, min});
  CHECK(outputs<std::int32_t>(simtest::device(), k, 8, grid(1), in) ==
        std::vector<std::int32_t>{-1, 7, min, 0, -1, 7, -3, -1});
}

TEST_CASE("64-bit division by zero and INT64_MIN / -1") {
  auto k = kernel("div_zero64", [](ReadBuffer<std::int64_t> in, WriteBuffer<std::int64_t> out) {
    Long a = in[0], zero = in[1], minus_one = in[2], min = in[3];
    out[0] = a / zero;
    out[1] = a % zero;
    out[2] = min / minus_one;
    out[3] = min % minus_one;
    out[4] = cast<std::int64_t>(cast<std::uint64_t>(a) / cast<std::uint64_t>(zero));
  }, workgroup(1));
  const std::int64_t min = std::numeric_limits<std::int64_t>::min();
  auto in = simtest::device().upload(std::vector<std::int64_t>{-9, 0, -1, min});
  CHECK(outputs<std::int64_t>(simtest::device(), k, 5, grid(1), in) == std::vector<std::int64_t>{-1, -9, min, 0, -1});
}

TEST_CASE("shift counts at or beyond the width are taken modulo the width, per lane") {
  auto k = kernel("shift_counts", [](ReadBuffer<std::uint32_t> counts, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UInt n = counts[i];
    out[i * 3u] = 1u << n;
    out[i * 3u + 1u] = 0x80000000u >> n;
    out[i * 3u + 2u] = cast<std::uint32_t>(cast<std::int32_t>(0x80000000u) >> cast<std::int32_t>(n));
  }, workgroup(4));
  auto counts = simtest::device().upload(std::vector<std::uint32_t>{0, 31, 32, 33});
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 12, grid(4), counts) ==
        std::vector<std::uint32_t>{1u, 0x80000000u, 0x80000000u,   // 0
                                   0x80000000u, 1u, 0xFFFFFFFFu,   // 31
                                   1u, 0x80000000u, 0x80000000u,   // 32 == 0
                                   2u, 0x40000000u, 0xC0000000u}); // 33 == 1
}

TEST_CASE("64-bit shifts take the count modulo 64") {
  auto k = kernel("shift64", [](ULong n, WriteBuffer<std::uint64_t> out) {
    ULong one = 1ull;
    out[0] = one << n;
    out[1] = cast<std::uint64_t>(cast<std::int64_t>(ULong(0x8000000000000000ull)) >> cast<std::int64_t>(n));
  }, workgroup(1));
  CHECK(outputs<std::uint64_t>(simtest::device(), k, 2, grid(1), 65ull) ==
        std::vector<std::uint64_t>{2ull, 0xC000000000000000ull});
}

TEST_CASE("signed integer overflow wraps") {
  auto k = kernel("wrap", [](Int big, WriteBuffer<std::int32_t> out) {
    out[0] = big + 1;
    out[1] = big * 2;
    out[2] = -(big + 1);
    out[3] = (big + 1) - 1;
  }, workgroup(1));
  const std::int32_t max = std::numeric_limits<std::int32_t>::max(), min = std::numeric_limits<std::int32_t>::min();
  CHECK(outputs<std::int32_t>(simtest::device(), k, 4, grid(1), max) == std::vector<std::int32_t>{min, -2, min, max});
}

TEST_CASE("bit operations: rotate, mul_hi, add_carry, counts, reversal, byte swap") {
  auto k = kernel("bits", [](UInt a, UInt b, Int s, WriteBuffer<std::uint32_t> out) {
    out[0] = rotate_left(a, 4u);
    out[1] = rotate_right(a, 36u);  // 36 mod 32 == 4
    out[2] = mul_hi(a, b);
    out[3] = add_carry(a, b);
    out[4] = popcount(a);
    out[5] = count_leading_zeros(b);
    out[6] = count_trailing_zeros(b);
    out[7] = count_leading_zeros(a - a);  // 0 -> the width
    out[8] = bit_reverse(b);
    out[9] = byte_swap(a);
    out[10] = cast<std::uint32_t>(mul_hi(s, s * 2));
    out[11] = cast<std::uint32_t>(popcount(s));
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 12, grid(1), 0x12345678u, 0xF0000010u, -3) ==
        std::vector<std::uint32_t>{0x23456781u, 0x81234567u, 0x11111111u, 1u, 13u, 0u, 4u, 32u, 0x0800000Fu,
                                   0x78563412u, 0u, 31u});
}

TEST_CASE("bitfield extract and insert clamp offset + count to the width") {
  auto k = kernel("bitfields", [](UInt v, Int sv, WriteBuffer<std::uint32_t> out) {
    out[0] = bitfield_extract(v, 4u, 8u);
    out[1] = bitfield_extract(v, 28u, 8u);   // clamped to 4 bits
    out[2] = bitfield_extract(v, 4u, 0u);    // nothing
    out[3] = cast<std::uint32_t>(bitfield_extract(sv, 0u, 4u));  // sign-extends 0b1010
    out[4] = bitfield_insert(v, 0xFu, 8u, 4u);
    out[5] = bitfield_insert(v, 0xFFu, 30u, 8u);  // only bits 30..31 written
    out[6] = bitfield_insert(v, 0xFFu, 4u, 0u);
    out[7] = bitfield_extract(v, 40u, 4u);   // offset beyond the width
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(1), 0xABCDEF12u, 0x0000000A) ==
        std::vector<std::uint32_t>{0xF1u, 0xAu, 0u, 0xFFFFFFFAu, 0xABCDEF12u, 0xEBCDEF12u, 0xABCDEF12u, 0u});
}

TEST_CASE("comparisons and logic give bools per lane; && and || evaluate both sides") {
  auto k = kernel("compare", [](ReadBuffer<std::int32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Int v = in[i];
    Bool neg = v < 0, small = v <= 2, big = v > 2, at_least = v >= 2, two = v == 2, not_two = v != 2;
    UInt bits = select(neg, 1u, 0u) | select(small, 2u, 0u) | select(big, 4u, 0u) | select(at_least, 8u, 0u) |
                select(two, 16u, 0u) | select(not_two, 32u, 0u) | select(neg || big, 64u, 0u) |
                select(!neg && small, 128u, 0u);
    out[i] = bits;
  }, workgroup(4));
  auto in = simtest::device().upload(std::vector<std::int32_t>{-5, 2, 3, 0});
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 4, grid(4), in) ==
        std::vector<std::uint32_t>{1 | 2 | 32 | 64, 2 | 8 | 16 | 128, 4 | 8 | 32 | 64, 2 | 32 | 128});
}

TEST_CASE("unsigned comparisons see large values as large") {
  auto k = kernel("ucompare", [](UInt a, WriteBuffer<std::uint32_t> out) {
    out[0] = select(a > 1u, 1u, 0u);
    out[1] = select(cast<std::int32_t>(a) > 1, 1u, 0u);
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 2, grid(1), 0xFFFFFFFFu) == std::vector<std::uint32_t>{1u, 0u});
}

TEST_CASE("float arithmetic is single precision, with IEEE infinities and NaN") {
  auto k = kernel("floats", [](Float a, Float zero, WriteBuffer<float> out) {
    out[0] = a / 3.0f;
    out[1] = a * a - 1.0f;
    out[2] = 1.0f / zero;
    out[3] = -1.0f / zero;
    out[4] = zero / zero;
    out[5] = -a;
  }, workgroup(1));
  std::vector<float> got = outputs<float>(simtest::device(), k, 6, grid(1), 1.5f, 0.0f);
  CHECK(got[0] == 1.5f / 3.0f);
  CHECK(got[1] == 1.25f);
  CHECK(got[2] == std::numeric_limits<float>::infinity());
  CHECK(got[3] == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(got[4]));
  CHECK(got[5] == -1.5f);
}

TEST_CASE("vector arithmetic is component-wise, with scalars broadcast") {
  auto k = kernel("vectors", [](Vec4 v, WriteBuffer<vec4> out, WriteBuffer<uvec2> bits) {
    out[0] = v * 2.0f + Vec4(vec4{1, 1, 1, 1});
    out[1] = v.swizzle<3, 2, 1, 0>();
    UVec2 u = UVec2(uvec2{0xF0u, 3u});
    bits[0] = (u << 4u) | UVec2(uvec2{1u, 2u});
  }, workgroup(1));
  auto out = simtest::device().upload(std::vector<vec4>(2));
  auto bits = simtest::device().upload(std::vector<uvec2>(1));
  simtest::device().run(k, grid(1), vec4{1, 2, 3, 4}, out, bits);
  std::vector<vec4> got = simtest::device().download(out);
  CHECK(got[0] == vec4{3, 5, 7, 9});
  CHECK(got[1] == vec4{4, 3, 2, 1});
  CHECK(simtest::device().download(bits)[0] == uvec2{0xF01u, 0x32u});
}
