// cast<T> and bitcast<T>: widening follows the source's signedness, float -> integer
// saturates with NaN -> 0, bools convert through select and != 0.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

TEST_CASE("integer casts between all widths and signednesses validate") {
  auto k = kernel("int_casts", [](Int a, UInt b, Long c, ULong d, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(a) + cast<std::uint64_t>(b) + cast<std::uint64_t>(c);
    out[1] = cast<std::uint64_t>(cast<std::int64_t>(a) + cast<std::int64_t>(b) + cast<std::int64_t>(d));
    out[2] = cast<std::uint64_t>(cast<std::int32_t>(c) + cast<std::int32_t>(d) + cast<std::int32_t>(b));
    out[3] = cast<std::uint64_t>(cast<std::uint32_t>(c) + cast<std::uint32_t>(d) + cast<std::uint32_t>(a));
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpSConvert));  // int32 -> 64 sign-extends
  CHECK(m.contains(spv::Op::OpUConvert));  // uint32 -> 64 zero-extends, 64 -> 32 truncates
}

TEST_CASE("float to integer conversions saturate and map NaN to 0") {
  auto k = kernel("f2i", [](Float f, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(cast<std::int32_t>(f));
    out[1] = cast<std::uint64_t>(cast<std::uint32_t>(f));
    out[2] = cast<std::uint64_t>(cast<std::int64_t>(f));
    out[3] = cast<std::uint64_t>(f);
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpConvertFToS) == 2);
  CHECK(m.count(spv::Op::OpConvertFToU) == 2);
  CHECK(m.count(spv::Op::OpIsNan) == 2);  // signed targets; unsigned ones fold NaN into >= 0
}

TEST_CASE("integer to float conversions and float vector casts") {
  auto k = kernel("i2f", [](Int a, UInt b, Long c, ULong d, IVec4 v, WriteBuffer<vec4> out) {
    Float s = cast<float>(a) + cast<float>(b) + cast<float>(c) + cast<float>(d);
    out[0] = cast<vec4>(v) + s;
    out[1] = cast<vec4>(cast<ivec4>(cast<vec4>(v) * 0.5f));
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpConvertSToF) == 4);
  CHECK(m.count(spv::Op::OpConvertUToF) == 2);
}

TEST_CASE("bools convert to and from numbers") {
  auto k = kernel("bool_casts", [](Int a, Float f, WriteBuffer<std::uint32_t> out) {
    Bool p = cast<bool>(a), q = cast<bool>(f);
    out[0] = cast<std::uint32_t>(p) + cast<std::uint32_t>(cast<float>(q));
    BVec2 pq = cast<bvec2>(Expr<ivec2>(ivec2{0, 1}) + a);
    out[1] = cast<uvec2>(pq).y();
  });
  valid_module(k);
}

TEST_CASE("bitcasts between same-sized types, including 64-bit scalars and 32-bit pairs") {
  auto k = kernel("bitcasts", [](Float f, ULong d, WriteBuffer<std::uint32_t> out) {
    out[0] = bitcast<std::uint32_t>(f) + cast<std::uint32_t>(bitcast<std::int32_t>(f));
    UVec2 halves = bitcast<uvec2>(d);
    out[1] = halves.x() ^ halves.y();
    out[2] = cast<std::uint32_t>(bitcast<std::uint64_t>(halves) >> 32ull);
    out[3] = bitcast<std::uint32_t>(bitcast<float>(halves.x()) * 2.0f);
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpBitcast) >= 5);
}

TEST_CASE("with sign_extension_by_shifts, sign extension is a zero extension and two shifts, scalars and vectors") {
  auto k = kernel("sign_extension_by_shifts", [](Int a, IVec2 v, WriteBuffer<std::int64_t> out) {
    out[0] = cast<std::int64_t>(a);
    out[1] = cast<std::int64_t>(cast<std::uint64_t>(a));  // into an unsigned type too
    out[2] = cast<i64vec2>(v).y();
  });
  compiler::CompileOptions options;
  options.sign_extension_by_shifts = true;
  test::Module m;
  m.words = compiler::compile(*k.ir(), options);  // validates
  CHECK_FALSE(m.contains(spv::Op::OpSConvert));
  CHECK(m.count(spv::Op::OpUConvert) == 3);
  CHECK(m.count(spv::Op::OpShiftLeftLogical) == 3);
  CHECK(m.count(spv::Op::OpShiftRightArithmetic) == 3);
  CHECK(valid_module(k).count(spv::Op::OpSConvert) == 3);  // the default keeps OpSConvert
}
