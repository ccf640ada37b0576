// Math through GLSL.std.450: every MathFn validates for scalars and vectors, integer
// variants follow signedness, and round() is RoundEven.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

namespace {

// Whether the disassembly calls the GLSL.std.450 instruction `name`.
bool calls(const test::Module& m, const std::string& name) { return m.text.find(" " + name + " ") != std::string::npos; }

}  // namespace

TEST_CASE("every float math function validates on scalars") {
  auto k = kernel("float_math", [](Float x, Float y, WriteBuffer<float> out) {
    out[0] = abs(x) + min(x, y) + max(x, y) + clamp(x, 0.0f, 1.0f) + floor(x) + ceil(x) + fract(x) + round(x) +
             trunc(x) + sqrt(x) + inversesqrt(x) + exp(x) + exp2(x) + log(x) + log2(x) + pow(x, y);
    out[1] = sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x) + atan2(y, x) + mix(x, y, 0.25f) + step(y, x) +
             smoothstep(0.0f, 1.0f, x) + fma(x, y, 1.0f) + sign(x) + length(x) + distance(x, y) + normalize(x) +
             dot(x, y) + reflect(x, y) + refract(x, y, 0.5f);
    out[2] = select(isnan(x) || isinf(y), 1.0f, 0.0f);
  });
  test::Module m = valid_module(k);
  CHECK(calls(m, "RoundEven"));
  CHECK_FALSE(calls(m, "Round"));
  CHECK(calls(m, "Atan2"));
  CHECK(calls(m, "FMix"));
  CHECK(m.contains(spv::Op::OpIsNan));
  CHECK(m.contains(spv::Op::OpIsInf));
}

TEST_CASE("float math on vectors, with geometry functions") {
  auto k = kernel("vector_math", [](Vec4 x, Vec4 y, Float t, WriteBuffer<vec4> out) {
    Vec3 c = cross(x.xyz(), y.xyz());
    Float d = dot(x, y) + length(x) + distance(x, y);
    out[0] = normalize(x) + reflect(x, y) + refract(x, y, 0.9f) + mix(x, y, t) + mix(x, y, y) + smoothstep(x, y, y) +
             clamp(x, y, y) + d + c.x();
    out[1] = select(isnan(x), y, x);
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpDot));
  CHECK(calls(m, "Cross"));
}

TEST_CASE("integer abs, min, max and clamp follow signedness") {
  auto k = kernel("int_math", [](Int a, UInt b, Long c, ULong d, IVec2 v, WriteBuffer<std::int64_t> out) {
    out[0] = cast<std::int64_t>(abs(a) + min(a, 3) + max(a, -3) + clamp(a, -1, 1));
    out[1] = cast<std::int64_t>(abs(b) + min(b, 3u) + max(b, 3u) + clamp(b, 1u, 2u));
    out[2] = abs(c) + min(c, 5ll) + cast<std::int64_t>(max(d, 2ull)) + clamp(cast<std::int64_t>(d), 0ll, 9ll);
    IVec2 w = abs(v) + min(v, 1) + clamp(v, 0, 5);
    out[3] = cast<std::int64_t>(w.x());
  });
  test::Module m = valid_module(k);
  CHECK(calls(m, "SAbs"));
  CHECK(calls(m, "SMin"));
  CHECK(calls(m, "UMin"));
  CHECK(calls(m, "SMax"));
  CHECK(calls(m, "UMax"));
  CHECK(calls(m, "SClamp"));
  CHECK(calls(m, "UClamp"));
}
