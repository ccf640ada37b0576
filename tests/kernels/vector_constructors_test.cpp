// Vectors built from device scalars, shorter vectors, places and host constants, as GLSL's
// constructors build them, on both backends.
#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("float vectors from scalars, shorter vectors and constants, every GLSL shape") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("vec_constructors", [](Float x, Float y, ReadBuffer<float> in, WriteBuffer<vec4> out) {
    Vec2 xy(x, y);
    Vec3 xyz(xy, 3.0f);
    out[0] = Vec4(x, y, 3.0f, 4);
    out[1] = Vec4(xy, in[0], 9.5f);
    out[2] = Vec4(x, xy, y);
    out[3] = Vec4(x, y, xy);
    out[4] = Vec4(xy, Vec2(in[1], in[0]));
    out[5] = Vec4(xyz, -1.0f);
    out[6] = Vec4(0.5f, xyz);
    out[7] = Vec4(x);
    out[8] = Vec4(Vec3(x, xy), 0) + Vec4(Vec3(x, y, 1), 0) + Vec4(Vec2(y), vec2{100, 200});
    Var<vec2> v = xy;
    v.y() = 8.0f;  // read back through the place
    out[9] = Vec4(v, x + y, in[1]);
    out[10] = Vec4(vec2{1, 2}, 3.0f, 4);  // constants only: one constant vector
  }, workgroup(1));
  auto in = dev.upload(std::vector<float>{5.0f, 6.0f});
  std::vector<vec4> got = outputs<vec4>(dev, k, 11, grid(1), 1.0f, 2.0f, in);
  CHECK(got[0] == vec4{1, 2, 3, 4});
  CHECK(got[1] == vec4{1, 2, 5, 9.5f});
  CHECK(got[2] == vec4{1, 1, 2, 2});
  CHECK(got[3] == vec4{1, 2, 1, 2});
  CHECK(got[4] == vec4{1, 2, 6, 5});
  CHECK(got[5] == vec4{1, 2, 3, -1});
  CHECK(got[6] == vec4{0.5f, 1, 2, 3});
  CHECK(got[7] == vec4{1, 1, 1, 1});
  CHECK(got[8] == vec4{1 + 1 + 2, 1 + 2 + 2, 2 + 1 + 100, 0 + 0 + 200});
  CHECK(got[9] == vec4{1, 8, 3, 6});
  CHECK(got[10] == vec4{1, 2, 3, 4});
}

TEST_CASE("integer, 64-bit and bool vectors from device scalars") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("int_vec_constructors", [](Int a, UInt b, Long c, WriteBuffer<ivec4> ints, WriteBuffer<uvec4> uints,
                                             WriteBuffer<i64vec2> longs) {
    IVec2 pair(a, -a);
    ints[0] = IVec4(pair, a * 3, -7);
    ints[1] = IVec4(IVec3(1, pair), a);
    ints[2] = IVec4(-1);
    UVec3 u(b, b + 1u, 0xFFFFFFFFu);
    uints[0] = UVec4(u, b * b);
    uints[1] = UVec4(UVec2(b), UVec2(7u, b));
    BVec4 bits(a > 0, true, Bool(b == 5u), BVec2(false, a < 0).x());
    uints[2] = select(bits, UVec4(1u), UVec4(0u));
    uints[3] = select(BVec4(BVec2(a == 2), false, true), UVec4(10u), UVec4(20u));
    longs[0] = Expr<i64vec2>(c, c * 2);
    longs[1] = Expr<i64vec2>(-5);
  }, workgroup(1));
  auto ints = dev.upload(std::vector<ivec4>(3));
  auto uints = dev.upload(std::vector<uvec4>(4));
  auto longs = dev.upload(std::vector<i64vec2>(2));
  dev.run(k, grid(1), 2, 5u, std::int64_t(0x100000000ll), ints, uints, longs);
  std::vector<ivec4> i = dev.download(ints);
  std::vector<uvec4> u = dev.download(uints);
  std::vector<i64vec2> l = dev.download(longs);
  CHECK(i[0] == ivec4{2, -2, 6, -7});
  CHECK(i[1] == ivec4{1, 2, -2, 2});
  CHECK(i[2] == ivec4{-1, -1, -1, -1});
  CHECK(u[0] == uvec4{5, 6, 0xFFFFFFFFu, 25});
  CHECK(u[1] == uvec4{5, 5, 7, 5});
  CHECK(u[2] == uvec4{1, 1, 1, 0});
  CHECK(u[3] == uvec4{10, 10, 20, 10});
  CHECK(l[0] == i64vec2{0x100000000ll, 0x200000000ll});
  CHECK(l[1] == i64vec2{-5, -5});
}
