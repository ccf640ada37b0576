// Memory in every storage class the interpreter addresses as bytes: buffers (std430),
// uniforms (std140), push constants (std430), local variables per lane and shared
// variables per workgroup, holding scalars, vectors, structs and arrays.
#include "sim_test_support.hpp"

using namespace sprig;
using simtest::outputs;

namespace memory_test {

struct Segment {
  vec3 from;  // std430: vec3 aligned to 16, followed by a scalar in its padding
  float weight;
  std::array<std::uint32_t, 3> tags;
  std::uint32_t flag;
};
SPRIG_STRUCT(Segment, from, weight, tags, flag)

struct Settings {
  std::uint32_t count;
  alignas(16) std::array<vec4, 2> offsets;  // std140: array stride 16
  float scale;
};
SPRIG_STRUCT(Settings, count, offsets, scale)

struct Pair {
  float a;
  std::uint32_t b;
};
SPRIG_STRUCT(Pair, a, b)

}  // namespace memory_test

using namespace memory_test;

TEST_CASE("std430 struct with a vec3, padding and an array: fields land at their offsets") {
  REQUIRE(ir::layout_of(device_type<Segment>(), ir::LayoutRule::Std430).offsets ==
          std::vector<std::uint32_t>{0, 12, 16, 28});
  auto k = kernel("segments", [](Buffer<Segment> s) {
    UInt i = global_id().x();
    Var<Segment> v = s[i];
    v[&Segment::from].z() = v[&Segment::from].x() + v[&Segment::weight];
    v[&Segment::tags][2u] = v[&Segment::tags][0u] + v[&Segment::tags][1u];
    v[&Segment::flag] = i + 100u;
    s[i] = v;
  }, workgroup(2));
  auto s = simtest::device().upload(
      std::vector<Segment>{{{1, 2, 3}, 0.5f, {{4, 5, 6}}, 0}, {{7, 8, 9}, 2.0f, {{1, 1, 1}}, 0}});
  simtest::device().run(k, grid(2), s);
  std::vector<Segment> got = simtest::device().download(s);
  CHECK(got[0].from == vec3{1, 2, 1.5f});
  CHECK(got[0].tags == std::array<std::uint32_t, 3>{4, 5, 9});
  CHECK(got[0].flag == 100u);
  CHECK(got[1].from == vec3{7, 8, 9});
  CHECK(got[1].tags == std::array<std::uint32_t, 3>{1, 1, 2});
  CHECK(got[1].flag == 101u);
}

TEST_CASE("a uniform is read with std140 offsets, an array of vec4 at stride 16") {
  auto k = kernel("uniform", [](Uniform<Settings> s, WriteBuffer<float> out) {
    out[0] = cast<float>(s[&Settings::count]);
    out[1] = s[&Settings::offsets][1].w() * s[&Settings::scale];
    out[2] = s[&Settings::offsets][0].y();
  }, workgroup(1));
  Settings settings{7, {vec4{0, 6, 0, 0}, vec4{0, 0, 0, 1.5f}}, 2.0f};
  CHECK(outputs<float>(simtest::device(), k, 3, grid(1), settings) == std::vector<float>{7, 3, 6});
}

TEST_CASE("struct values travel in push constants (std430)") {
  auto k = kernel("push_struct", [](Expr<Pair> p, UInt extra, WriteBuffer<float> out) {
    out[0] = p[&Pair::a] + cast<float>(p[&Pair::b]) + cast<float>(extra);
  }, workgroup(1));
  CHECK(outputs<float>(simtest::device(), k, 1, grid(1), Pair{1.5f, 2}, 10u) == std::vector<float>{13.5f});
}

TEST_CASE("local arrays are per lane, dynamically indexed, and re-zeroed where declared") {
  auto k = kernel("local_array", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<UInt> total = 0u;
    for_(0u, 2u, [&](UInt round) {
      Var<std::array<std::uint32_t, 8>> a;  // a fresh, zeroed array each round
      a[i % 8u] += round + 1u;
      for_(0u, 8u, [&](UInt j) { total += a[j]; });
    });
    Var<std::array<std::uint32_t, 8>> squares;
    for_(0u, 8u, [&](UInt j) { squares[j] = j * j; });
    out[i] = total * 1000u + squares[7u - i % 8u];
  }, workgroup(16));
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 0; i < 16; ++i) expected.push_back(3 * 1000 + (7 - i % 8) * (7 - i % 8));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 16, grid(16)) == expected);
}

TEST_CASE("64-bit values and bools in buffers: bools are 32-bit 0/1 in memory") {
  auto k = kernel("wide_and_bool", [](ReadBuffer<std::uint64_t> in, WriteBuffer<std::uint64_t> out,
                                      WriteBuffer<std::uint32_t> flags) {
    UInt i = global_id().x();
    out[i] = in[i] * 3ull;
    Var<bool> b = in[i] > 0xFFFFFFFFull;  // a bool in a local: stored as 0/1
    flags[i] = select(b, 1u, 0u);
  }, workgroup(2));
  auto in = simtest::device().upload(std::vector<std::uint64_t>{0x100000000ull, 5});
  auto out = simtest::device().upload(std::vector<std::uint64_t>(2));
  auto flags = simtest::device().upload(std::vector<std::uint32_t>(2));
  simtest::device().run(k, grid(2), in, out, flags);
  CHECK(simtest::device().download(out) == std::vector<std::uint64_t>{0x300000000ull, 15});
  CHECK(simtest::device().download(flags) == std::vector<std::uint32_t>{1, 0});
}

TEST_CASE("shared memory is per workgroup") {
  auto k = kernel("per_group", [](WriteBuffer<std::uint32_t> out) {
    auto slot = shared<std::uint32_t>("slot");
    UInt l = local_index();
    if_(l == 0u, [&] { slot = workgroup_id().x() * 7u + 1u; });
    barrier();
    out[global_id().x()] = slot.load();
  }, workgroup(4));
  CHECK(outputs<std::uint32_t>(simtest::device(), k, 12, grid(12)) ==
        std::vector<std::uint32_t>{1, 1, 1, 1, 8, 8, 8, 8, 15, 15, 15, 15});
}
