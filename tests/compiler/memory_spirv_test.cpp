// Buffers, push constants, uniforms, local variables and composites: interface
// decorations, explicit layouts kept apart from logical types, and whole-struct copies
// between the two.
#include <regex>

#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

namespace memory_test {

struct Particle {
  vec2 position;
  vec2 velocity;
  std::uint32_t bounces;
  float mass;
};
SPRIG_STRUCT(Particle, position, velocity, bounces, mass)

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

}  // namespace memory_test

using namespace memory_test;

namespace {

// The decorations `decoration` applied by OpMemberDecorate, as {member, value} of each.
std::vector<std::vector<std::uint32_t>> member_decorations(const test::Module& m, spv::Decoration decoration) {
  std::vector<std::vector<std::uint32_t>> out;
  for (const auto& d : m.instructions(spv::Op::OpMemberDecorate))
    if (d.at(2) == std::uint32_t(decoration)) out.push_back(d);
  return out;
}

}  // namespace

TEST_CASE("buffer parameters are std430 blocks with bindings in parameter order and access decorations") {
  auto k = kernel("buffers", [](ReadBuffer<float> in, WriteBuffer<float> out, Buffer<std::uint32_t> both,
                                CoherentBuffer<std::uint32_t> shared_with_others) {
    UInt i = global_id().x();
    out[i] = in[i];
    both[i] = both[i] + shared_with_others[i];
  });
  test::Module m = valid_module(k);
  CHECK(member_decorations(m, spv::Decoration::NonWritable).size() == 1);
  CHECK(member_decorations(m, spv::Decoration::NonReadable).size() == 1);
  CHECK(member_decorations(m, spv::Decoration::Coherent).size() == 1);
  CHECK(m.text.find("OpDecorate %param0 Binding 0") != std::string::npos);
  CHECK(m.text.find("OpDecorate %param3 Binding 3") != std::string::npos);
  CHECK(m.text.find("OpDecorate %param2 DescriptorSet 0") != std::string::npos);
  CHECK(m.text.find("ArrayStride 4") != std::string::npos);
}

TEST_CASE("value parameters share one push-constant block at their std430 offsets") {
  auto k = kernel("push", [](Float a, ULong b, Vec4 c, UInt d, WriteBuffer<float> out) {
    out[0] = a + cast<float>(b) + c.w() + cast<float>(d);
  });
  test::Module m = valid_module(k);
  CHECK(m.text.find("OpTypePointer PushConstant") != std::string::npos);
  // float at 0, uint64 at 8, vec4 at 16, uint at 32 (the block's members, in order).
  CHECK(m.text.find("OpMemberDecorate %push_constants_block 0 Offset 0") != std::string::npos);
  CHECK(m.text.find("OpMemberDecorate %push_constants_block 1 Offset 8") != std::string::npos);
  CHECK(m.text.find("OpMemberDecorate %push_constants_block 2 Offset 16") != std::string::npos);
  CHECK(m.text.find("OpMemberDecorate %push_constants_block 3 Offset 32") != std::string::npos);
}

TEST_CASE("a struct loaded from a buffer and stored to another is copied between layouts") {
  auto k = kernel("particles", [](ReadBuffer<Particle> in, WriteBuffer<Particle> out) {
    UInt i = global_id().x();
    Expr<Particle> p = in[i];
    Var<Particle> local = p;
    local[&Particle::bounces] += 1u;
    out[i] = local;
    out[i][&Particle::mass] = p[&Particle::mass] * 2.0f;
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpCopyLogical) == 2);
  // One Particle type per layout, named alike: the std430 one carries the offsets.
  CHECK(std::regex_search(m.text, std::regex("OpMemberDecorate %Particle(_[0-9]+)? 3 Offset 20")));
}

TEST_CASE("a std140 uniform struct with nested structs and arrays") {
  auto k = kernel("uniform", [](Uniform<Settings> s, WriteBuffer<vec4> out) {
    Expr<Material> material = s[&Settings::material];
    out[0] = material[&Material::tint] * material[&Material::gain] + s[&Settings::offsets][1u] * s[&Settings::scale];
  });
  test::Module m = valid_module(k);
  CHECK(m.text.find("OpTypePointer Uniform") != std::string::npos);
  CHECK(m.text.find("ArrayStride 16") != std::string::npos);
  CHECK(std::regex_search(m.text, std::regex("OpMemberDecorate %Settings(_[0-9]+)? 2 Offset 48")));
}

TEST_CASE("local variables live in the entry block and are initialised where declared") {
  auto k = kernel("locals", [](WriteBuffer<std::uint32_t> out) {
    Var<UInt> zero;
    Var<std::array<std::uint32_t, 4>> table;
    for_(0u, 4u, [&](UInt j) {
      Var<UInt> square = j * j;
      table[j] = square;
    });
    out[0] = table[2u] + zero;
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpVariable) == 4 + 1);  // zero, table, loop counter, square; the buffer
  CHECK(m.contains(spv::Op::OpConstantNull));
}

TEST_CASE("vector components and swizzles as values and places") {
  auto k = kernel("swizzles", [](Vec4 v, UInt i, WriteBuffer<vec4> out) {
    Var<vec4> w = v;
    w[i] = 1.0f;
    w.y() = v[i];
    Vec2 xy = v.xy();
    Vec3 zyx = v.swizzle<2, 1, 0>();
    out[0] = Vec4(w) + xy.x() + zyx.z();
    out[1][i] = v.w();
  });
  test::Module m = valid_module(k);
  CHECK(m.contains(spv::Op::OpVectorShuffle));
  CHECK(m.contains(spv::Op::OpVectorExtractDynamic));
}

TEST_CASE("constant vectors and splats of literals are module constants") {
  auto k = kernel("constants", [](Vec4 v, WriteBuffer<vec4> out) { out[0] = v * 2.0f + Vec4(vec4{1, 2, 3, 4}); });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpConstantComposite) == 2);
  CHECK_FALSE(m.contains(spv::Op::OpCompositeConstruct));
}

TEST_CASE("fixed-size arrays and structs as values") {
  auto k = kernel("aggregates", [](Float f, WriteBuffer<float> out) {
    Var<std::array<float, 3>> a;
    a[0u] = f;
    Expr<std::array<float, 3>> snapshot = a;
    out[0] = snapshot[0] + snapshot[2];
  });
  valid_module(k);
}

TEST_CASE("buffer sizes come from OpArrayLength") {
  auto k = kernel("sizes", [](ReadBuffer<vec4> a, WriteBuffer<std::uint32_t> out) { out[0] = a.size(); });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpArrayLength) == 1);
}
