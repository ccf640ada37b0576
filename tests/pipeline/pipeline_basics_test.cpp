// The core cases: maps, type changes, filters, lengths around the chunk size.
#include "pipeline_support.hpp"

using namespace sprig;
using pipeline_test::iota_values;

TEST_CASE("0..255 mapped +1 gives 1..256") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto out = iota_values(256) | gpu::map([](UInt x) { return x + 1u; }) | gpu::collect(dev);
  REQUIRE(out == iota_values(256, 1));
}

TEST_CASE("a stream of 300 mapped +1 gives exactly 300 outputs") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto out = iota_values(300) | gpu::map([](UInt x) { return x + 1u; }) | gpu::collect(dev);
  REQUIRE(out.size() == 300);
  CHECK(out.front() == 1u);
  CHECK(out.back() == 300u);
  REQUIRE(out == iota_values(300, 1));
}

TEST_CASE("an empty input gives an empty output") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<std::uint32_t> none;
  CHECK((none | gpu::map([](UInt x) { return x + 1u; }) | gpu::collect(dev)).empty());
  CHECK((none | gpu::filter([](UInt x) { return x > 3u; }) | gpu::count(dev)) == 0);
}

TEST_CASE("one element") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<std::uint32_t> one{41};
  CHECK((one | gpu::map([](UInt x) { return x + 1u; }) | gpu::collect(dev)) == std::vector<std::uint32_t>{42});
}

TEST_CASE("4096 floats mapped to vec4(f, f+1, f+2, f+3)") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<float> in(4096);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
  auto out = in | gpu::map([](Float f) { return Vec4(vec4{0, 1, 2, 3}) + f; }) | gpu::collect(dev);
  REQUIRE(out.size() == 4096);
  for (std::size_t i = 0; i < in.size(); ++i) {
    INFO("i=" << i);
    REQUIRE(out[i].x == in[i]);
    REQUIRE(out[i].y == in[i] + 1);
    REQUIRE(out[i].z == in[i] + 2);
    REQUIRE(out[i].w == in[i] + 3);
  }
  CHECK(out[4095].w == 2050.5f);
}

TEST_CASE("0..4095 filtered by x % 7 == 0 gives 586 multiples of 7 in ascending order") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto out = iota_values(4096) | gpu::filter([](UInt x) { return x % 7u == 0u; }) | gpu::collect(dev);
  REQUIRE(out.size() == 586);
  for (std::size_t k = 0; k < out.size(); ++k) REQUIRE(out[k] == 7 * k);
  CHECK(out.back() == 4095u);
}

TEST_CASE("a filter that keeps nothing gives nothing") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto out = iota_values(1000) | gpu::filter([](UInt x) { return x > 5000u; }) | gpu::collect(dev);
  CHECK(out.empty());
}

TEST_CASE("a filter that keeps everything gives the input") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto out = iota_values(1000) | gpu::filter([](UInt x) { return x < 5000u; }) | gpu::collect(dev);
  CHECK(out == iota_values(1000));
}

TEST_CASE("map, filter, map changes types on the way: uint -> float -> int") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto out = iota_values(20) | gpu::map([](UInt x) { return cast<float>(x) * 0.5f; })
             | gpu::filter([](Float f) { return f >= 7.0f; }) | gpu::map([](Float f) { return cast<std::int32_t>(f) - 10; })
             | gpu::collect(dev);
  // x = 14..19 -> f = 7, 7.5, 8, 8.5, 9, 9.5 -> int 7, 7, 8, 8, 9, 9 -> -3, -3, -2, -2, -1, -1
  CHECK(out == std::vector<std::int32_t>{-3, -3, -2, -2, -1, -1});
}

TEST_CASE("two filters in a row with tiny chunks keep runs that straddle chunk boundaries") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  auto out = iota_values(60) | gpu::filter([](UInt x) { return x % 10u < 6u; })
             | gpu::filter([](UInt x) { return x % 10u >= 3u; }) | gpu::map([](UInt x) { return x * 2u; })
             | gpu::collect(dev, tiny);
  std::vector<std::uint32_t> expected;
  for (std::uint32_t tens = 0; tens < 60; tens += 10)
    for (std::uint32_t x = tens + 3; x < tens + 6; ++x) expected.push_back(2 * x);
  CHECK(out == expected);
}

TEST_CASE("a source with no stages copies through the device") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK((iota_values(300) | gpu::collect(dev, {.chunk_elements = 64})) == iota_values(300));
}
