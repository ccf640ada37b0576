// Conversions, bitcasts, math functions and composite values in the interpreter.
#include <cmath>
#include <limits>

#include "sim_test_support.hpp"

using namespace sprig;
using simtest::outputs;

TEST_CASE("float to int conversion truncates toward zero, saturates, and turns NaN into 0") {
  auto k = kernel("f2i", [](ReadBuffer<float> in, WriteBuffer<std::int32_t> s, WriteBuffer<std::uint32_t> u) {
    UInt i = global_id().x();
    s[i] = cast<std::int32_t>(in[i]);
    u[i] = cast<std::uint32_t>(in[i]);
  }, workgroup(8));
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  auto in = simtest::device().upload(std::vector<float>{2.9f, -2.9f, 3e9f, -3e9f, nan, inf, -inf, 5e9f});
  auto s = simtest::device().upload(std::vector<std::int32_t>(8));
  auto u = simtest::device().upload(std::vector<std::uint32_t>(8));
  simtest::device().run(k, grid(8), in, s, u);
  const std::int32_t imax = std::numeric_limits<std::int32_t>::max(), imin = std::numeric_limits<std::int32_t>::min();
  CHECK(simtest::device().download(s) == std::vector<std::int32_t>{2, -2, imax, imin, 0, imax, imin, imax});
  CHECK(simtest::device().download(u) ==
        std::vector<std::uint32_t>{2u, 0u, 3000000000u, 0u, 0u, 0xFFFFFFFFu, 0u, 0xFFFFFFFFu});
}

TEST_CASE("integer conversions extend by the source's signedness and wrap when narrowing") {
  auto k = kernel("i2i", [](Int a, ULong b, WriteBuffer<std::uint64_t> out) {
    out[0] = cast<std::uint64_t>(a);                      // sign-extends
    out[1] = cast<std::uint64_t>(cast<std::uint32_t>(a));  // zero-extends
    out[2] = cast<std::uint64_t>(cast<std::uint32_t>(b));  // keeps the low half
    out[3] = cast<std::uint64_t>(cast<float>(a));          // -1.0 -> saturates to 0
    out[4] = cast<std::uint64_t>(cast<float>(b) > 1e19f);
  }, workgroup(1));
  CHECK(outputs<std::uint64_t>(simtest::device(), k, 5, grid(1), -1, 0x123456789ull * 16) ==
        std::vector<std::uint64_t>{0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFull, 0x34567890ull, 0u, 0u});
}

TEST_CASE("bools convert to 0/1 and back from non-zero") {
  auto k = kernel("bools", [](ReadBuffer<std::int32_t> in, WriteBuffer<float> out) {
    UInt i = global_id().x();
    Bool b = cast<bool>(in[i]);
    out[i] = cast<float>(b) + cast<float>(cast<std::uint32_t>(!b)) * 10.0f;
  }, workgroup(4));
  auto in = simtest::device().upload(std::vector<std::int32_t>{0, 5, -1, 0});
  CHECK(outputs<float>(simtest::device(), k, 4, grid(4), in) == std::vector<float>{10, 1, 1, 10});
}

TEST_CASE("bitcast reinterprets bits, also between u64 and uvec2") {
  auto k = kernel("bitcasts", [](Float f, ULong wide, WriteBuffer<std::uint32_t> out) {
    out[0] = bitcast<std::uint32_t>(f);
    out[1] = bitcast<std::uint32_t>(cast<std::int32_t>(-2));
    UVec2 halves = bitcast<uvec2>(wide);
    out[2] = halves.x();
    out[3] = halves.y();
    out[4] = cast<std::uint32_t>(bitcast<std::uint64_t>(halves.swizzle<1, 0>()) >> 32ull);
  }, workgroup(1));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 5, grid(1), 1.0f, 0x1122334455667788ull) ==
        std::vector<std::uint32_t>{0x3F800000u, 0xFFFFFFFEu, 0x55667788u, 0x11223344u, 0x55667788u});
}

TEST_CASE("math functions follow GLSL: rounding, min/max/clamp, mix, step, geometry") {
  auto k = kernel("math", [](Float x, WriteBuffer<float> out) {
    out[0] = floor(x);
    out[1] = ceil(x);
    out[2] = fract(x);
    out[3] = round(Float(2.5f));  // halves to even
    out[4] = round(Float(3.5f));
    out[5] = trunc(-x);
    out[6] = sqrt(x * x);
    out[7] = min(x, 1.0f) + max(x, 10.0f);
    out[8] = clamp(x, 0.0f, 2.0f);
    out[9] = mix(Float(2.0f), Float(4.0f), 0.25f);
    out[10] = step(Float(2.0f), x) + step(Float(3.0f), x) * 10.0f;
    out[11] = abs(-x);
    out[12] = sign(-x);
    out[13] = dot(Vec3(vec3{1, 2, 3}), Vec3(vec3{4, 5, 6}));
    out[14] = length(Vec2(vec2{3, 4}));
    out[15] = cross(Vec3(vec3{1, 0, 0}), Vec3(vec3{0, 1, 0})).z();
    out[16] = normalize(Vec2(vec2{0, 5})).y();
    out[17] = fma(x, 2.0f, 1.0f);
    out[18] = smoothstep(Float(0.0f), Float(4.0f), x);
    out[19] = distance(Vec2(vec2{1, 1}), Vec2(vec2{4, 5}));
  }, workgroup(1));
  std::vector<float> got = outputs<float>(simtest::device(), k, 20, grid(1), 2.25f);
  CHECK(got == std::vector<float>{2.0f, 3.0f, 0.25f, 2.0f, 4.0f, -2.0f, 2.25f, 11.0f, 2.0f, 2.5f, 1.0f, 2.25f, -1.0f,
                                  32.0f, 5.0f, 1.0f, 1.0f, 5.5f, 0.5625f * 0.5625f * (3.0f - 2.0f * 0.5625f), 5.0f});
}

TEST_CASE("integer min, max, clamp and abs are exact and respect signedness") {
  auto k = kernel("int_math", [](Int a, UInt b, WriteBuffer<std::int32_t> out) {
    out[0] = min(a, 3);
    out[1] = max(a, 3);
    out[2] = clamp(a, -2, 2);
    out[3] = abs(a);
    out[4] = abs(Int(std::numeric_limits<std::int32_t>::min()));  // wraps
    out[5] = cast<std::int32_t>(min(b, 1u));
  }, workgroup(1));
  CHECK(outputs<std::int32_t>(simtest::device(), k, 6, grid(1), -7, 0xFFFFFFFFu) ==
        std::vector<std::int32_t>{-7, 3, -2, 7, std::numeric_limits<std::int32_t>::min(), 1});
}

TEST_CASE("isnan and isinf give bools of the operand's shape") {
  auto k = kernel("classify", [](ReadBuffer<float> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = select(isnan(in[i]), 1u, 0u) + select(isinf(in[i]), 2u, 0u);
  }, workgroup(4));
  auto in = simtest::device().upload(
      std::vector<float>{1.0f, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity(), 0.0f});
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 4, grid(4), in) == std::vector<std::uint32_t>{0, 1, 2, 0});
}

TEST_CASE("dynamic vector component selection per lane") {
  auto k = kernel("dynamic_component", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    UVec4 v = UVec4(uvec4{10, 20, 30, 40});
    out[i] = v[i % 4u];
  }, workgroup(8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 8, grid(8)) ==
        std::vector<std::uint32_t>{10, 20, 30, 40, 10, 20, 30, 40});
}
