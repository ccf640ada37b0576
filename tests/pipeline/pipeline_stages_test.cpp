// enumerate, take, drop, scan, struct elements and the user kernel stage.
#include <sstream>

#include "pipeline_support.hpp"

using namespace sprig;
using pipeline_test::iota_values;

namespace pipeline_test {

struct Particle {
  float mass;
  std::uint32_t id;
};
SPRIG_STRUCT(Particle, mass, id)

}  // namespace pipeline_test

using pipeline_test::Particle;

TEST_CASE("enumerate gives each element its index in the stream, counting only what reaches it") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  auto out = iota_values(20) | gpu::filter([](UInt x) { return x % 2u == 1u; })
             | gpu::enumerate([](UInt i, UInt x) { return i * 100u + x; }) | gpu::collect(dev, tiny);
  CHECK(out == std::vector<std::uint32_t>{1, 103, 205, 307, 409, 511, 613, 715, 817, 919});
}

TEST_CASE("drop skips the first elements of the stream, across chunks") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  CHECK((iota_values(30) | gpu::drop(10) | gpu::collect(dev, tiny)) == iota_values(20, 10));
  // After a filter: the multiples of 3 below 30 are 0, 3, ..., 27; drop the first 4.
  CHECK((iota_values(30) | gpu::filter([](UInt x) { return x % 3u == 0u; }) | gpu::drop(4) | gpu::collect(dev, tiny)) ==
        std::vector<std::uint32_t>{12, 15, 18, 21, 24, 27});
  CHECK((iota_values(30) | gpu::drop(100) | gpu::collect(dev, tiny)).empty());
}

TEST_CASE("take keeps the first elements of the stream, across chunks") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  CHECK((iota_values(30) | gpu::take(10) | gpu::collect(dev, tiny)) == iota_values(10));
  CHECK((iota_values(30) | gpu::drop(5) | gpu::take(3) | gpu::collect(dev, tiny)) ==
        std::vector<std::uint32_t>{5, 6, 7});
  CHECK((iota_values(30) | gpu::take(0) | gpu::collect(dev, tiny)).empty());
}

TEST_CASE("take cuts an infinite generator") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  auto doubled = std::views::iota(0u) | gpu::map([](UInt x) { return x * 2u; }) | gpu::take(10) | gpu::collect(dev, tiny);
  CHECK(doubled == std::vector<std::uint32_t>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18});
  // After a filter the host cannot know where to stop: it stops once the take is satisfied.
  auto fives = std::views::iota(0u) | gpu::filter([](UInt x) { return x % 5u == 0u; }) | gpu::take(4) |
               gpu::collect(dev, tiny);
  CHECK(fives == std::vector<std::uint32_t>{0, 5, 10, 15});
}

TEST_CASE("enumerate, drop and take before a filter run inside its compaction") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  auto odd = [](UInt x) { return x % 2u == 1u; };
  // Indices count every element, kept or not: 0*100+0, 1*100+1, ... keeps the odd ones.
  CHECK((iota_values(12) | gpu::enumerate([](UInt i, UInt x) { return i * 100u + x; }) | gpu::filter(odd) |
         gpu::collect(dev, tiny)) == std::vector<std::uint32_t>{101, 303, 505, 707, 909, 1111});
  CHECK((iota_values(30) | gpu::drop(9) | gpu::take(10) | gpu::filter(odd) | gpu::collect(dev, tiny)) ==
        std::vector<std::uint32_t>{9, 11, 13, 15, 17});
  // A take satisfied in the first chunk: later chunks arrive empty at the filter.
  CHECK((iota_values(40) | gpu::take(3) | gpu::filter(odd) | gpu::filter(odd) | gpu::collect(dev, tiny)) ==
        std::vector<std::uint32_t>{1});
  // Chunks of many tiles: every third of 100000 elements, mapped before the filter.
  auto thirds = iota_values(100000) | gpu::map([](UInt x) { return x + 1u; }) |
                gpu::filter([](UInt x) { return x % 3u == 0u; }) | gpu::collect(dev, {.chunk_elements = 65536});
  REQUIRE(thirds.size() == 33333);
  for (std::size_t k = 0; k < thirds.size(); ++k) REQUIRE(thirds[k] == 3 * (k + 1));
}

TEST_CASE("the maps after a filter run in its kernel, up to a scan, a take, the end or a reduce") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  auto odd = [](UInt x) { return x % 2u == 1u; };
  // Odd numbers below 10 are 1, 3, 5, 7, 9.
  CHECK((iota_values(10) | gpu::filter(odd) | gpu::map([](UInt x) { return x * 10u; }) | gpu::scan<std::uint32_t>() |
         gpu::collect(dev, tiny)) == std::vector<std::uint32_t>{10, 40, 90, 160, 250});
  CHECK((iota_values(20) | gpu::filter(odd) | gpu::map([](UInt x) { return x + 1u; }) | gpu::take(3) |
         gpu::collect(dev, tiny)) == std::vector<std::uint32_t>{2, 4, 6});
  CHECK((iota_values(10) | gpu::filter(odd) | gpu::map([](UInt x) { return cast<float>(x) * 0.5f; }) |
         gpu::collect(dev, tiny)) == std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f, 4.5f});
  // A reduce pads the chunk past its count, so its maps stay in a kernel of their own.
  CHECK((iota_values(10) | gpu::filter(odd) | gpu::map([](UInt x) { return x * 2u; }) |
         gpu::reduce(dev, sprig::plus<std::uint32_t>(), tiny)) == 50u);
}

TEST_CASE("scan is a running sum across chunk boundaries") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options chunks{.chunk_elements = 100};
  auto out = iota_values(1000) | gpu::scan<std::uint32_t>() | gpu::collect(dev, chunks);
  REQUIRE(out.size() == 1000);
  CHECK(out[0] == 0u);
  CHECK(out[99] == 4950u);
  CHECK(out[100] == 5050u);
  CHECK(out[999] == 499500u);
  for (std::uint32_t i = 0; i < 1000; ++i) REQUIRE(out[i] == i * (i + 1) / 2);
}

TEST_CASE("scan after a filter and before a map, with tiny chunks") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options tiny{.chunk_elements = 7};
  auto out = iota_values(20) | gpu::filter([](UInt x) { return x % 4u == 1u; }) | gpu::scan(sprig::maximum<std::uint32_t>())
             | gpu::map([](UInt x) { return x + 1000u; }) | gpu::collect(dev, tiny);
  CHECK(out == std::vector<std::uint32_t>{1001, 1005, 1009, 1013, 1017});
  auto sums = std::vector<std::uint32_t>(20, 1) | gpu::filter([](UInt x) { return x == 1u; }) | gpu::scan<std::uint32_t>() |
              gpu::collect(dev, tiny);
  CHECK(sums == iota_values(20, 1));
}

TEST_CASE("struct elements map to uint") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::vector<Particle> particles;
  for (std::uint32_t i = 0; i < 50; ++i) particles.push_back({float(i % 4), i});
  auto out = particles | gpu::filter([](Expr<Particle> p) { return p[&Particle::mass] >= 2.0f; })
             | gpu::map([](Expr<Particle> p) { return p[&Particle::id] * 10u + cast<std::uint32_t>(p[&Particle::mass]); })
             | gpu::collect(dev, {.chunk_elements = 16});
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 0; i < 50; ++i)
    if (i % 4 >= 2) expected.push_back(i * 10 + i % 4);
  CHECK(out.size() == 24);
  CHECK(out == expected);
}

namespace pipeline_test {

// Reverses each workgroup's 64 elements through shared memory; slots past the count read 0.
struct ReverseInWorkgroup {
  void operator()(ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out, UInt count) const {
    auto tile = shared_array<std::uint32_t>(64, "tile");
    UInt i = global_id().x();
    UInt lane = local_index();
    tile[lane] = select(i < count, Expr<std::uint32_t>(in[select(i < count, i, Expr<std::uint32_t>(0u))]),
                        Expr<std::uint32_t>(0u));
    barrier();
    if_(i < count, [&] { out[i] = Expr<std::uint32_t>(tile[63u - lane]); });
  }
};

}  // namespace pipeline_test

TEST_CASE("a user kernel stage runs its workgroup body over each chunk") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto out = iota_values(100) | gpu::map([](UInt x) { return x + 1u; })
             | gpu::kernel_stage<std::uint32_t>(64, pipeline_test::ReverseInWorkgroup{})
             | gpu::map([](UInt x) { return x * 2u; }) | gpu::collect(dev, {.chunk_elements = 128});
  REQUIRE(out.size() == 100);
  // Workgroup 0 holds 1..64 reversed; workgroup 1 holds 65..100 then 28 zeros, reversed.
  for (std::uint32_t i = 0; i < 64; ++i) REQUIRE(out[i] == 2 * (64 - i));
  for (std::uint32_t l = 0; l < 36; ++l) REQUIRE(out[64 + l] == (63 - l < 36 ? 2 * (65 + 63 - l) : 0u));
  CHECK(out[64] == 0u);
  CHECK(out[92] == 200u);
  CHECK(out[99] == 186u);
}
