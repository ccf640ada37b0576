// std430 / std140 layouts, and the host-side check that catches a mismatch.
#include <catch2/catch.hpp>

#include "sprig/dsl.hpp"

using namespace sprig;
using Catch::Contains;

namespace layout_test {

struct Light {
  vec4 color;
  float intensity;
  std::uint32_t kind;
};
SPRIG_STRUCT(Light, color, intensity, kind)

// std140 puts the nested struct and the array on 16-byte boundaries; the host struct is
// padded to match.
struct Scene {
  float exposure;
  alignas(16) Light key;
  alignas(16) std::array<vec4, 2> ambient;
  std::uint32_t frame;
};
SPRIG_STRUCT(Scene, exposure, key, ambient, frame)

struct Unpadded {
  float exposure;
  vec3 direction;
};
SPRIG_STRUCT(Unpadded, exposure, direction)

struct WithVec3 {
  vec3 normal;
  float d;
};
SPRIG_STRUCT(WithVec3, normal, d)

}  // namespace layout_test

using namespace layout_test;

TEST_CASE("std140 offsets of a nested struct in a uniform") {
  ir::Layout l = ir::layout_of(device_type<Scene>(), ir::LayoutRule::Std140);
  CHECK(l.offsets == std::vector<std::uint32_t>{0, 16, 48, 80});
  CHECK(l.size == 96);
  CHECK(offsetof(Scene, key) == 16);
  CHECK(offsetof(Scene, ambient) == 48);
  CHECK(offsetof(Scene, frame) == 80);
  CHECK(host_layout_mismatch<Scene>(ir::LayoutRule::Std140, false).empty());
}

TEST_CASE("std430 offsets: vec3 is 16-aligned and 12 bytes long") {
  ir::Layout l = ir::layout_of(device_type<WithVec3>(), ir::LayoutRule::Std430);
  CHECK(l.offsets == std::vector<std::uint32_t>{0, 12});
  CHECK(l.size == 16);
  CHECK(l.alignment == 16);
}

TEST_CASE("std140 rounds array strides up to 16 bytes; std430 does not") {
  ir::TypeRef floats = ir::array_type(ir::scalar_type(ir::ScalarKind::F32), 4);
  CHECK(ir::layout_of(floats, ir::LayoutRule::Std140).stride == 16);
  CHECK(ir::layout_of(floats, ir::LayoutRule::Std430).stride == 4);
}

TEST_CASE("a host struct whose layout differs is reported with the field and offsets") {
  CHECK(host_layout_mismatch<Unpadded>(ir::LayoutRule::Std140, false) ==
        "field 'struct Unpadded.direction' is at host offset 4 but the device layout puts it at 16 (align the host "
        "member, e.g. alignas(16))");
}

TEST_CASE("a uniform whose host layout differs from std140 fails at trace time") {
  CHECK_THROWS_WITH(kernel("bad_uniform", [](Uniform<Unpadded> u, WriteBuffer<float> out) { out[0] = u[&Unpadded::exposure]; }),
                    Contains("kernel 'bad_uniform'") && Contains("layouts differ"));
}

TEST_CASE("a buffer of vec3 cannot mirror a host array of vec3") {
  CHECK_THROWS_WITH(kernel("vec3_buffer", [](ReadBuffer<vec3> in, WriteBuffer<float> out) { out[0] = in[0].x(); }),
                    Contains("12 bytes on the host but 16 bytes apart"));
}

TEST_CASE("a buffer of bool is rejected: bools are 32-bit on the device") {
  CHECK_THROWS_WITH(kernel("bools", [](ReadBuffer<bool> in, WriteBuffer<float> out) { out[0] = select(in[0], 1.0f, 0.0f); }),
                    Contains("1 bytes on the host but 4 bytes apart"));
}
