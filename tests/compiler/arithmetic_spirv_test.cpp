// Arithmetic, comparisons, logic and select: every module validates, and the guards that
// semantics.hpp needs (division by zero, MIN / -1) appear only where the divisor is not
// known at trace time.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

TEST_CASE("arithmetic on every scalar type validates") {
  auto k = kernel("scalars", [](Int i, UInt u, Float f, Long l, ULong ul, WriteBuffer<std::uint32_t> out) {
    out[0] = cast<std::uint32_t>(i + i * i - i / i % i + (-i));
    out[1] = u + u * u - u / u % u;
    out[2] = bitcast<std::uint32_t>(f + f * f - f / f + (-f));
    out[3] = cast<std::uint32_t>(l + l * l - l / l % l + (-l));
    out[4] = cast<std::uint32_t>(ul + ul * ul - ul / ul % ul);
  });
  valid_module(k);
}

TEST_CASE("arithmetic on vectors validates, including scalars broadcast to vectors") {
  auto k = kernel("vectors", [](IVec3 a, UVec2 b, Vec4 c, WriteBuffer<vec4> out) {
    IVec3 x = a * a / (a - 1) % a;
    UVec2 y = b / b % 3u + 1u;
    Vec4 z = c * 2.0f / c - (-c);
    out[0] = z + cast<vec4>(Expr<ivec4>(ivec4{1, 2, 3, 4})) + cast<float>(x.x()) + cast<float>(y.y());
  });
  valid_module(k);
}

TEST_CASE("division by a constant other than 0 and -1 is a single division instruction") {
  auto k = kernel("const_div", [](Int a, UInt b, WriteBuffer<std::uint32_t> out) {
    out[0] = cast<std::uint32_t>(a / 7 + a % 7);
    out[1] = b / 16u + b % 16u;
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpSDiv) == 1);
  CHECK(m.count(spv::Op::OpSRem) == 1);
  CHECK(m.count(spv::Op::OpUDiv) == 1);
  CHECK(m.count(spv::Op::OpUMod) == 1);
  CHECK_FALSE(m.contains(spv::Op::OpSelect));
}

TEST_CASE("a run-time unsigned divisor is guarded against zero") {
  auto k = kernel("udiv", [](UInt a, UInt b, WriteBuffer<std::uint32_t> out) { out[0] = a / b; });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpIEqual) == 1);  // b == 0
  CHECK(m.count(spv::Op::OpSelect) == 2);  // safe divisor, all-ones result
}

TEST_CASE("a run-time signed divisor is guarded against zero and -1") {
  auto k = kernel("sdiv", [](Int a, Int b, WriteBuffer<std::int32_t> out) {
    out[0] = a / b;
    out[1] = a % b;
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpSDiv) == 1);
  CHECK(m.count(spv::Op::OpSRem) == 1);
  CHECK(m.count(spv::Op::OpSNegate) == 1);     // a / -1
  CHECK(m.count(spv::Op::OpLogicalOr) == 2);   // b == 0 || b == -1, for / and for %
}

TEST_CASE("division by constant 0 or -1 needs no division instruction") {
  auto k = kernel("edge_div", [](Int a, WriteBuffer<std::int32_t> out) {
    out[0] = a / 0;
    out[1] = a % 0;
    out[2] = a / -1;
    out[3] = a % -1;
  });
  test::Module m = valid_module(k);
  CHECK_FALSE(m.contains(spv::Op::OpSDiv));
  CHECK_FALSE(m.contains(spv::Op::OpSRem));
  CHECK(m.count(spv::Op::OpSNegate) == 1);
}

TEST_CASE("float comparisons are ordered except !=, which is true for NaN") {
  auto k = kernel("fcmp", [](Float a, Float b, WriteBuffer<std::uint32_t> out) {
    out[0] = select(a == b, 1u, 0u) + select(a != b, 1u, 0u) + select(a < b, 1u, 0u) + select(a <= b, 1u, 0u) +
             select(a > b, 1u, 0u) + select(a >= b, 1u, 0u);
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpFOrdEqual));
  CHECK(m.contains(spv::Op::OpFUnordNotEqual));
  CHECK(m.contains(spv::Op::OpFOrdLessThan));
  CHECK(m.contains(spv::Op::OpFOrdGreaterThanEqual));
}

TEST_CASE("integer comparisons follow signedness") {
  auto k = kernel("icmp", [](Int a, UInt b, WriteBuffer<std::uint32_t> out) {
    out[0] = select(a < 0, 1u, 0u) + select(b < 1u, 1u, 0u) + select(a >= 3, 1u, 0u) + select(b > 2u, 1u, 0u);
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpSLessThan));
  CHECK(m.contains(spv::Op::OpULessThan));
  CHECK(m.contains(spv::Op::OpSGreaterThanEqual));
  CHECK(m.contains(spv::Op::OpUGreaterThan));
}

TEST_CASE("logic on bools and bool vectors, and select with scalar or vector conditions") {
  auto k = kernel("logic", [](Int a, Vec4 v, WriteBuffer<vec4> out) {
    Bool p = a > 0, q = a < 10;
    Bool r = (p && q) || !p;
    BVec4 lanes = v > 0.5f;
    BVec4 mixed = (lanes == BVec4(bvec4{true, false, true, false})) != lanes;
    out[0] = select(r, v, -v);
    out[1] = select(mixed, v, Vec4(vec4{1, 2, 3, 4}));
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpLogicalAnd));
  CHECK(m.contains(spv::Op::OpLogicalOr));
  CHECK(m.contains(spv::Op::OpLogicalNot));
  CHECK(m.contains(spv::Op::OpLogicalEqual));
  CHECK(m.contains(spv::Op::OpLogicalNotEqual));
}

TEST_CASE("floor_div and mod validate on every numeric type and never use OpSMod or OpFMod") {
  auto k = kernel("floor_division", [](Int i, UInt u, Float f, Long l, ULong ul, IVec3 v, Vec2 w,
                                       WriteBuffer<std::uint32_t> out) {
    out[0] = cast<std::uint32_t>(floor_div(i, i) + mod(i, i) + floor_div(i, 0) + mod(i, -3));
    out[1] = floor_div(u, u) + mod(u, u) + mod(u, 8u);
    out[2] = bitcast<std::uint32_t>(floor_div(f, f) + mod(f, 2.0f));
    out[3] = cast<std::uint32_t>(floor_div(l, l) + mod(l, l)) + cast<std::uint32_t>(floor_div(ul, ul) + mod(ul, ul));
    out[4] = cast<std::uint32_t>((floor_div(v, v) + mod(v, 3)).y()) + cast<std::uint32_t>(mod(w, w.x()).y());
  });
  test::Module m = valid_module(k);
  CHECK_FALSE(m.contains(spv::Op::OpSMod));
  CHECK(m.contains(spv::Op::OpUMod));  // unsigned mod is %
  CHECK_FALSE(m.contains(spv::Op::OpFMod));
}
