// User structs in uniforms, buffers and locals; fixed-size local arrays.
#include "backends.hpp"

using namespace sprig;
using test::outputs;

namespace structs_test {

struct Material {
  vec4 tint;
  float gain;
  std::uint32_t flags;
};
SPRIG_STRUCT(Material, tint, gain, flags)

struct Settings {
  std::uint32_t count;
  alignas(16) Material material;
  alignas(16) std::array<vec4, 2> offsets;
  float scale;
};
SPRIG_STRUCT(Settings, count, material, offsets, scale)

struct Particle {
  vec2 position;
  vec2 velocity;
  std::uint32_t bounces;
  float mass;
};
SPRIG_STRUCT(Particle, position, velocity, bounces, mass)

}  // namespace structs_test

using namespace structs_test;

TEST_CASE("nested structs in a uniform, with std140 offsets asserted on the host") {
  ir::Layout l = ir::layout_of(device_type<Settings>(), ir::LayoutRule::Std140);
  REQUIRE(l.offsets == std::vector<std::uint32_t>{0, 16, 48, 80});
  REQUIRE(offsetof(Settings, material) == 16);
  REQUIRE(offsetof(Settings, offsets) == 48);
  REQUIRE(offsetof(Settings, scale) == 80);
  REQUIRE(ir::layout_of(device_type<Material>(), ir::LayoutRule::Std140).offsets == std::vector<std::uint32_t>{0, 16, 20});

  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("uniforms", [](Uniform<Settings> s, WriteBuffer<float> out) {
    Expr<Material> m = s[&Settings::material];
    out[0] = cast<float>(s[&Settings::count]);
    out[1] = m[&Material::tint].z() * m[&Material::gain];
    out[2] = cast<float>(m[&Material::flags]);
    out[3] = s[&Settings::offsets][1].w() * s[&Settings::scale];
  }, workgroup(1));
  Settings settings{7, {{0.5f, 1, 2, 3}, 4.0f, 9}, {vec4{0, 0, 0, 0}, vec4{0, 0, 0, 1.5f}}, 2.0f};
  CHECK(outputs<float>(dev, k, 4, grid(1), settings) == std::vector<float>{7, 8, 9, 3});
}

TEST_CASE("structs in buffers: read, modify fields, write back") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("particles", [](Float dt, Buffer<Particle> ps) {
    UInt i = global_id().x();
    if_(i < ps.size(), [&] {
      Var<Particle> p = ps[i];
      p[&Particle::position] = p[&Particle::position] + p[&Particle::velocity] * dt;
      if_(p[&Particle::position].y() < 0.0f, [&] {
        p[&Particle::velocity].y() = -p[&Particle::velocity].y();
        p[&Particle::bounces] += 1u;
      });
      ps[i] = p;
    });
  }, workgroup(2));
  auto ps = dev.upload(std::vector<Particle>{{{0, 1}, {1, -4}, 0, 1.0f}, {{2, 2}, {0, 1}, 5, 2.0f}, {{0, 0}, {0, -1}, 1, 3.0f}});
  dev.run(k, grid(3), 0.5f, ps);
  std::vector<Particle> got = dev.download(ps);
  CHECK(got[0].position == vec2{0.5f, -1.0f});
  CHECK(got[0].velocity == vec2{1, 4});
  CHECK(got[0].bounces == 1u);
  CHECK(got[1].position == vec2{2, 2.5f});
  CHECK(got[1].bounces == 5u);
  CHECK(got[2].bounces == 2u);
  CHECK(got[2].mass == 3.0f);
}

TEST_CASE("loop-carried struct state") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("fibonacci_struct", [](UInt steps, WriteBuffer<Particle> out) {
    Var<Particle> p;  // zero-initialised
    p[&Particle::position] = Vec2(vec2{0, 1});
    for_(0u, steps, [&](UInt) {
      Vec2 pos = p[&Particle::position];
      p[&Particle::position] = Vec2(vec2{0, 0}) + pos.y();
      p[&Particle::position].y() = pos.x() + pos.y();
      p[&Particle::bounces] += 1u;
      p[&Particle::mass] = p[&Particle::mass] + 0.5f;
    });
    out[0] = p;
  }, workgroup(1));
  std::vector<Particle> got = outputs<Particle>(dev, k, 1, grid(1), 10u);
  CHECK(got[0].position == vec2{55, 89});
  CHECK(got[0].velocity == vec2{0, 0});
  CHECK(got[0].bounces == 10u);
  CHECK(got[0].mass == 5.0f);
}

TEST_CASE("fixed-size local arrays with dynamic indexing") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("local_array", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      Var<std::array<std::uint32_t, 8>> a;
      for_(0u, 8u, [&](UInt j) { a[j] = j * j; });
      Var<UInt> sum = 0u;
      for_(0u, i % 8u + 1u, [&](UInt j) { sum += a[7u - j]; });
      out[i] = sum + a[i % 8u];
    });
  }, workgroup(4));
  // sum of the i%8+1 largest squares below 64, plus (i%8)^2
  CHECK(outputs<std::uint32_t>(dev, k, 10, grid(10)) ==
        std::vector<std::uint32_t>{49, 86, 114, 135, 151, 164, 176, 189, 49, 86});
}
