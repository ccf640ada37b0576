// Bit operations: shift counts are masked only when not known to be below the width;
// 64-bit counts, reversals and bitfields are computed in 32-bit halves or with shifts,
// because Vulkan allows OpBitCount, OpBitReverse, OpBitField* and FindUMsb/FindILsb on
// 32-bit operands only (spirv-val checks that rule in the Vulkan environment).
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

TEST_CASE("a constant shift count below the width is used as is") {
  auto k = kernel("const_shift", [](UInt a, Int b, WriteBuffer<std::uint32_t> out) {
    out[0] = (a << 3u) | (a >> 31u);
    out[1] = cast<std::uint32_t>(b >> 4);
  });
  test::Module m = valid_module(k);
  CHECK_FALSE(m.contains(spv::Op::OpBitwiseAnd));
  CHECK(m.contains(spv::Op::OpShiftRightArithmetic));
  CHECK(m.contains(spv::Op::OpShiftRightLogical));
}

TEST_CASE("a constant shift count at or beyond the width is reduced at trace time") {
  auto k = kernel("wide_const_shift", [](UInt a, WriteBuffer<std::uint32_t> out) { out[0] = a << 33u; });
  test::Module m = valid_module(k);
  CHECK_FALSE(m.contains(spv::Op::OpBitwiseAnd));
  CHECK(m.text.find("%uint_1 ") != std::string::npos);
}

TEST_CASE("a run-time shift count is masked to the width") {
  auto k = kernel("dyn_shift", [](UInt a, ULong b, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(a << a) + (b >> b);
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpBitwiseAnd) == 2);
}

TEST_CASE("rotates by constant and run-time counts, 32 and 64 bits") {
  auto k = kernel("rotates", [](UInt a, ULong b, Int c, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(rotate_left(a, 7u) ^ rotate_right(a, a) ^ rotate_left(a, 32u));
    out[1] = rotate_left(b, 13ull) ^ rotate_right(b, b);
    out[2] = cast<std::uint64_t>(rotate_left(c, c));
  });
  valid_module(k);
}

TEST_CASE("bit counts of 32- and 64-bit scalars and vectors") {
  auto k = kernel("counts", [](Int a, ULong b, UVec2 c, Long d, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(popcount(a) + count_leading_zeros(a) + count_trailing_zeros(a));
    out[1] = popcount(b) + count_leading_zeros(b) + count_trailing_zeros(b);
    UVec2 v = popcount(c) + count_leading_zeros(c) + count_trailing_zeros(c);
    out[2] = cast<std::uint64_t>(v.x() + v.y());
    out[3] = cast<std::uint64_t>(popcount(d) + count_leading_zeros(d) + count_trailing_zeros(d));
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpBitCount));
}

TEST_CASE("bit reverse and byte swap of 32- and 64-bit values") {
  auto k = kernel("reversal", [](UInt a, ULong b, IVec2 c, Long d, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(bit_reverse(a) ^ byte_swap(a));
    out[1] = bit_reverse(b) ^ byte_swap(b);
    IVec2 v = bit_reverse(c) ^ byte_swap(c);
    out[2] = cast<std::uint64_t>(v.x() ^ v.y());
    out[3] = cast<std::uint64_t>(bit_reverse(d) ^ byte_swap(d));
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpBitReverse) == 1 + 2 + 1 + 2);
}

TEST_CASE("64-bit vectors are counted component by component") {
  auto k = kernel("wide_vectors", [](ULong a, WriteBuffer<std::uint64_t> out) {
    Expr<u64vec2> v = Expr<u64vec2>(u64vec2{1, 2}) + a;
    Expr<u64vec2> r = popcount(v) + bit_reverse(v) + count_leading_zeros(v);
    out[0] = r.x() + r.y();
  });
  valid_module(k);
}

TEST_CASE("bitfields with constant in-range fields use OpBitField* without clamps") {
  auto k = kernel("fields", [](UInt a, Int b, WriteBuffer<std::uint32_t> out) {
    out[0] = bitfield_extract(a, 4u, 8u) + bitfield_insert(a, a, 24u, 8u);
    out[1] = cast<std::uint32_t>(bitfield_extract(b, 0u, 32u));
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpBitFieldUExtract));
  CHECK(m.contains(spv::Op::OpBitFieldSExtract));
  CHECK(m.contains(spv::Op::OpBitFieldInsert));
  CHECK_FALSE(m.text.find("UMin") != std::string::npos);
}

TEST_CASE("bitfields with run-time fields are clamped to the width") {
  auto k = kernel("dyn_fields", [](UInt a, UInt off, UInt count, IVec3 v, WriteBuffer<std::uint32_t> out) {
    out[0] = bitfield_extract(a, off, count) + bitfield_insert(a, a, off, count);
    IVec3 e = bitfield_extract(v, off, count);
    out[1] = cast<std::uint32_t>(e.z());
  });
  test::Module m = valid_module(k);
  CHECK(m.text.find("UMin") != std::string::npos);
}

TEST_CASE("64-bit bitfields are computed with shifts and masks") {
  auto k = kernel("wide_fields", [](ULong a, Long b, UInt off, UInt count, WriteBuffer<std::uint64_t> out) {
    out[0] = bitfield_extract(a, off, count) + bitfield_insert(a, a, off, count);
    out[1] = cast<std::uint64_t>(bitfield_extract(b, off, count) + bitfield_insert(b, b, 3u, 60u));
    Expr<i64vec2> v = Expr<i64vec2>(i64vec2{-1, 5}) * b;
    Expr<i64vec2> f = bitfield_extract(v, off, count) + bitfield_insert(v, v, off, count);
    out[2] = cast<std::uint64_t>(f.x() + f.y());
  });
  test::Module m = valid_module(k);
  CHECK_FALSE(m.contains(spv::Op::OpBitFieldUExtract));
  CHECK_FALSE(m.contains(spv::Op::OpBitFieldInsert));
}

TEST_CASE("mul_hi and add_carry for signed and unsigned, 32 and 64 bits") {
  auto k = kernel("wide_arith", [](Int a, UInt b, Long c, ULong d, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(mul_hi(a, a) + add_carry(a, a));
    out[1] = cast<std::uint64_t>(mul_hi(b, b) + add_carry(b, b));
    out[2] = cast<std::uint64_t>(mul_hi(c, c) + add_carry(c, c));
    out[3] = mul_hi(d, d) + add_carry(d, d);
    out[4] = mul_wide(b, b);
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpSMulExtended));
  CHECK(m.contains(spv::Op::OpUMulExtended));
  CHECK(m.count(spv::Op::OpIAddCarry) == 4);
}
