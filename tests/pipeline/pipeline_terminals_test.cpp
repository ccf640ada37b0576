// The terminals: output iterator, reduce, count, the lazy chunk view, device buffers.
#include <iterator>
#include <list>

#include "pipeline_support.hpp"

using namespace sprig;
using pipeline_test::iota_values;

TEST_CASE("results can be written through an output iterator") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::list<std::uint32_t> out;
  iota_values(10) | gpu::map([](UInt x) { return x * x; }) | gpu::to(dev, std::back_inserter(out), {.chunk_elements = 3});
  CHECK(out == std::list<std::uint32_t>{0, 1, 4, 9, 16, 25, 36, 49, 64, 81});
}

TEST_CASE("reduce folds the whole stream on the device") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK((iota_values(1000) | gpu::map([](UInt x) { return x + 1u; }) |
         gpu::reduce(dev, sprig::plus<std::uint32_t>(), {.chunk_elements = 300})) == 500500u);
  CHECK((iota_values(1000) | gpu::filter([](UInt x) { return x % 10u == 3u; }) |
         gpu::reduce(dev, sprig::maximum<std::uint32_t>(), {.chunk_elements = 7})) == 993u);
  std::vector<std::uint32_t> none;
  CHECK((none | gpu::reduce(dev, sprig::plus<std::uint32_t>())) == 0u);
}

TEST_CASE("count gives the number of results") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  CHECK((iota_values(4096) | gpu::filter([](UInt x) { return x % 7u == 0u; }) | gpu::count(dev, {.chunk_elements = 1000})) ==
        586);
}

TEST_CASE("the lazy chunk view yields the results chunk by chunk, in order") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto view = iota_values(25) | gpu::map([](UInt x) { return x + 100u; }) | gpu::chunks(dev, {.chunk_elements = 10});
  std::vector<std::vector<std::uint32_t>> seen;
  for (const auto& chunk : view) seen.push_back(chunk);
  REQUIRE(seen.size() == 3);
  CHECK(seen[0] == iota_values(10, 100));
  CHECK(seen[1] == iota_values(10, 110));
  CHECK(seen[2] == iota_values(5, 120));
}

TEST_CASE("a device pipeline runs over a buffer already on the device") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto chain = gpu::map([](UInt x) { return x * 3u; }) | gpu::filter([](UInt x) { return x % 2u == 0u; }) |
               gpu::map([](UInt x) { return x + 1u; });
  gpu::DevicePipeline<std::uint32_t, decltype(chain)> pipeline(dev, chain, 1000);
  auto in = dev.upload(iota_values(1000));
  auto out = dev.alloc<std::uint32_t>(1000);
  REQUIRE(pipeline.run(in, out) == 500);
  auto got = dev.download(out);
  CHECK(got[0] == 1u);
  CHECK(got[1] == 7u);
  CHECK(got[499] == 2995u);
}

TEST_CASE("a gpu::Pipeline object runs many streams on the same buffers, starting each afresh") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto chain = gpu::filter([](UInt x) { return x % 2u == 0u; }) | gpu::enumerate([](UInt i, UInt x) { return i * 1000u + x; }) |
               gpu::take(4);
  gpu::Pipeline<std::uint32_t, decltype(chain)> pipeline(dev, chain, {.chunk_elements = 3, .buffers = 2});
  std::vector<std::uint32_t> expected{0, 1002, 2004, 3006};
  CHECK(pipeline.collect(iota_values(30)) == expected);
  std::size_t traced = gpu::kernels_traced();
  CHECK(pipeline.collect(iota_values(30)) == expected);
  CHECK(pipeline.count(std::views::iota(0u)) == 4);
  std::vector<std::uint32_t> out;
  pipeline.to(iota_values(5, 10), std::back_inserter(out));
  CHECK(out == std::vector<std::uint32_t>{10, 1012, 2014});
  CHECK(gpu::kernels_traced() == traced);
}
