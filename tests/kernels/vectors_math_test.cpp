// Vector algebra and GLSL.std.450 math on both backends (floats within tolerances).
#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("vector algebra: component-wise ops, scalar broadcast, swizzles, dot and cross") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("vectors", [](Vec4 a, Vec4 b, WriteBuffer<vec4> out) {
    out[0] = a + b;
    out[1] = a * 2.0f - b;
    out[2] = a.swizzle<3, 2, 1, 0>();
    Vec3 c = cross(a.xyz(), b.xyz());
    out[3] = Vec4(vec4{0, 0, 0, 0}) + c.x();
    out[4] = select(a < b, a, b);
    Var<Vec4> v = a;
    v.w() = dot(a, b);
    v[1] = c.z();
    out[5] = v;
  }, workgroup(1));
  std::vector<vec4> got = outputs<vec4>(dev, k, 6, grid(1), vec4{1, 2, 3, 4}, vec4{4, 3, 2, 1});
  CHECK(got[0] == vec4{5, 5, 5, 5});
  CHECK(got[1] == vec4{-2, 1, 4, 7});
  CHECK(got[2] == vec4{4, 3, 2, 1});
  CHECK(got[3] == vec4{-5, -5, -5, -5});  // (1,2,3) x (4,3,2) = (-5, 10, -5)
  CHECK(got[4] == vec4{1, 2, 2, 1});
  CHECK(got[5] == vec4{1, -5, 3, 20});
}

TEST_CASE("integer vectors: arithmetic, shifts, comparisons") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("ivectors", [](UVec4 a, WriteBuffer<uvec4> out) {
    out[0] = (a << 2u) | 1u;
    out[1] = a / UVec4(uvec4{1, 2, 3, 4});
    out[2] = select(a > 2u, a, UVec4(uvec4{9, 9, 9, 9}));
    out[3] = min(a, 3u) + max(a, 2u);
  }, workgroup(1));
  std::vector<uvec4> got = outputs<uvec4>(dev, k, 4, grid(1), uvec4{1, 2, 3, 4});
  CHECK(got[0] == uvec4{5, 9, 13, 17});
  CHECK(got[1] == uvec4{1, 1, 1, 1});
  CHECK(got[2] == uvec4{9, 9, 3, 4});
  CHECK(got[3] == uvec4{3, 4, 6, 7});
}

TEST_CASE("GLSL.std.450 math on scalars") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("math", [](Float x, WriteBuffer<float> out) {
    out[0] = abs(-x);
    out[1] = floor(x);
    out[2] = ceil(x);
    out[3] = fract(x);
    out[4] = round(x);
    out[5] = trunc(-x);
    out[6] = sqrt(x);
    out[7] = inversesqrt(x);
    out[8] = exp(x);
    out[9] = exp2(x);
    out[10] = log(x);
    out[11] = log2(x);
    out[12] = pow(x, 2.0f);
    out[13] = sin(x);
    out[14] = cos(x);
    out[15] = tan(x);
    out[16] = asin(x / 4.0f);
    out[17] = acos(x / 4.0f);
    out[18] = atan(x);
    out[19] = atan2(x, -1.0f);
    out[20] = clamp(x, 0.0f, 1.0f);
    out[21] = mix(Float(0.0f), 10.0f, 0.25f);
    out[22] = step(2.0f, x);
    out[23] = smoothstep(0.0f, 5.0f, x);
    out[24] = fma(x, 2.0f, 1.0f);
    out[25] = min(x, 1.0f) + max(x, 1.0f);
  }, workgroup(1));
  float x = 2.5f;
  std::vector<float> got = outputs<float>(dev, k, 26, grid(1), x);
  std::vector<float> expected{2.5f, 2.0f, 3.0f, 0.5f, 2.0f, -2.0f, std::sqrt(x), 1 / std::sqrt(x), std::exp(x),
                              std::exp2(x), std::log(x), std::log2(x), x * x, std::sin(x), std::cos(x), std::tan(x),
                              std::asin(x / 4), std::acos(x / 4), std::atan(x), std::atan2(x, -1.0f), 1.0f, 2.5f,
                              1.0f, 0.5f, 6.0f, 3.5f};
  // Vulkan lets inverse trigonometric functions derive from atan2 with a loose bound
  // (lavapipe is off by ~3e-4 relative); everything else is within 1e-5.
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("out[" << i << "]");
    double tolerance = (i == 16 || i == 17) ? 1e-3 : 1e-5;
    CHECK(got[i] == Approx(expected[i]).epsilon(tolerance).margin(1e-6));
  }
}

TEST_CASE("geometric functions on vectors") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("geometry", [](Vec3 v, WriteBuffer<float> out) {
    out[0] = length(v);
    out[1] = distance(v, Vec3(vec3{0, 0, 0}));
    Vec3 n = normalize(v);
    out[2] = n.x();
    Vec3 r = reflect(Vec3(vec3{1, -1, 0}), Vec3(vec3{0, 1, 0}));
    out[3] = r.y();
    Vec3 t = refract(Vec3(vec3{0, -1, 0}), Vec3(vec3{0, 1, 0}), 1.0f);
    out[4] = t.y();
    out[5] = dot(v, v);
  }, workgroup(1));
  std::vector<float> got = outputs<float>(dev, k, 6, grid(1), vec3{3, 4, 0});
  CHECK(got[0] == Approx(5.0f));
  CHECK(got[1] == Approx(5.0f));
  CHECK(got[2] == Approx(0.6f));
  CHECK(got[3] == Approx(1.0f));
  CHECK(got[4] == Approx(-1.0f));
  CHECK(got[5] == 25.0f);
}
