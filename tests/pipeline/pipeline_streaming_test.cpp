// Streaming: generators, istreams, chunk sizes, kernel reuse, the simulator's report and
// bad options.
#include <sstream>

#include <range/v3/view/generate_n.hpp>
#include <range/v3/view/iota.hpp>
#include <range/v3/view/transform.hpp>

#include "pipeline_support.hpp"

using namespace sprig;
using pipeline_test::Counter;
using pipeline_test::iota_values;

TEST_CASE("a generator of 10 million elements streams through in chunks with the count checked") {
  auto backend = SPRIG_BACKEND;
  sprig::Device& dev = test::device(backend);
  // The simulator interprets every lane (a few hundred million lane-operations a second at
  // best): it streams 1,000,000 elements, in 62 chunks of its default 2^14, instead.
  std::uint64_t n = backend == test::Backend::Vulkan ? 10'000'000 : 1'000'000;
  std::size_t expected = backend == test::Backend::Vulkan ? 3'333'334 : 333'334;
  std::size_t kept = Counter(n) | gpu::map([](UInt x) { return x * 7u; }) |
                     gpu::filter([](UInt x) { return x % 3u == 0u; }) | gpu::count(dev);
  CHECK(kept == expected);
}

TEST_CASE("large chunks pull the next chunk on a helper thread while results are copied out") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  // 2^20 elements in chunks of the smallest size that prefetches: 16 chunks, 3 in flight.
  gpu::Options options{.chunk_elements = gpu::detail::prefetch_min_elements};
  std::uint32_t n = 1u << 20;
  auto chain = gpu::map([](UInt x) { return x * 3u; }) | gpu::filter([](UInt x) { return x % 2u == 0u; });
  auto from_vector = iota_values(n) | chain | gpu::collect(dev, options);
  REQUIRE(from_vector.size() == n / 2);
  for (std::uint32_t k = 0; k < n / 2; ++k) REQUIRE(from_vector[k] == 6 * k);
  // A source that is not contiguous is read element by element on the helper thread.
  CHECK((Counter(n) | chain | gpu::count(dev, options)) == n / 2);
  // A take after the filter stops the stream while a prefetch may have started.
  auto first = std::views::iota(0u) | chain | gpu::take(100000) | gpu::collect(dev, options);
  REQUIRE(first.size() == 100000);
  CHECK(first.back() == 6u * 99999u);
}

TEST_CASE("tiny chunks give the same results as one big chunk") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto chain = gpu::map([](UInt x) { return x * 3u + 1u; }) | gpu::filter([](UInt x) { return x % 4u != 0u; }) |
               gpu::enumerate([](UInt i, UInt x) { return x + (i << 16u); });
  auto big = iota_values(300) | chain | gpu::collect(dev, {.chunk_elements = 4096});
  auto tiny = iota_values(300) | chain | gpu::collect(dev, {.chunk_elements = 7, .buffers = 2});
  auto one_in_flight = iota_values(300) | chain | gpu::collect(dev, {.chunk_elements = 13, .buffers = 1});
  REQUIRE(big.size() == 225);
  CHECK(big[0] == 1u);
  CHECK(big[1] == (1u << 16) + 7u);
  CHECK(tiny == big);
  CHECK(one_in_flight == big);
}

TEST_CASE("an istream view is read element by element") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::istringstream text("3 1 4 1 5 9 2 6 5 3");
  auto out = std::ranges::istream_view<std::uint32_t>(text) | gpu::map([](UInt x) { return x * 10u; }) |
             gpu::collect(dev, {.chunk_elements = 4});
  CHECK(out == std::vector<std::uint32_t>{30, 10, 40, 10, 50, 90, 20, 60, 50, 30});
}

TEST_CASE("range-v3 views and generators are sources") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto odd = ranges::views::iota(0u, 100u) | ranges::views::transform([](std::uint32_t x) { return 2 * x; }) |
             gpu::map([](UInt x) { return x + 1u; }) | gpu::collect(dev, {.chunk_elements = 30});
  REQUIRE(odd.size() == 100);
  CHECK(odd[0] == 1u);
  CHECK(odd[99] == 199u);
  for (std::uint32_t i = 0; i < 100; ++i) REQUIRE(odd[i] == 2 * i + 1);
  std::uint32_t next = 0;
  auto generated = ranges::views::generate_n([next]() mutable { return next++; }, 1000);
  CHECK((generated | gpu::filter([](UInt x) { return x % 3u == 0u; }) | gpu::count(dev, {.chunk_elements = 64})) == 334);
}

namespace pipeline_test {
auto plus_five = [](UInt x) { return x + 5u; };
auto odd = [](UInt x) { return (x & 1u) == 1u; };
struct CopyBody {
  void operator()(ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out, UInt count) const {
    UInt i = global_id().x();
    if_(i < count, [&] { out[i] = Expr<std::uint32_t>(in[i]); });
  }
};
}  // namespace pipeline_test

TEST_CASE("a pipeline's kernels are traced once and reused for every chunk and every later run") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto chain = gpu::map(pipeline_test::plus_five) | gpu::filter(pipeline_test::odd);
  auto first = iota_values(300) | chain | gpu::collect(dev, {.chunk_elements = 7});
  std::size_t traced = gpu::kernels_traced();
  auto second = iota_values(300) | chain | gpu::collect(dev, {.chunk_elements = 7});
  auto third = iota_values(1000) | chain | gpu::collect(dev, {.chunk_elements = 64});
  CHECK(gpu::kernels_traced() == traced);
  CHECK(first == second);
  CHECK(first.size() == 150);
  CHECK(third.size() == 500);
  CHECK(third.back() == 1003u);
}

TEST_CASE("the same pipeline runs on the simulator with its report") {
  sim::Device& sim = test::simulator();
  sim.clear_report();
  auto out = iota_values(64) | gpu::map([](UInt x) { return x ^ 1u; }) | gpu::collect(sim);
  CHECK(out[0] == 1u);
  CHECK(out[1] == 0u);
  sim::Report report = sim.report();
  CHECK(report.clean());
  CHECK(report.launches >= 1);
  bool fused = false;
  for (const auto& k : report.kernels) fused = fused || k.name.find("pipeline_fused") != std::string::npos;
  CHECK(fused);
}

TEST_CASE("bad options are rejected with a clear error") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto chain = gpu::map([](UInt x) { return x + 1u; });
  CHECK_THROWS_WITH(iota_values(10) | chain | gpu::collect(dev, {.chunk_elements = 0}),
                    Catch::Contains("chunk_elements is 0"));
  CHECK_THROWS_WITH(iota_values(10) | chain | gpu::collect(dev, {.chunk_elements = 8, .buffers = 0}),
                    Catch::Contains("buffers is 0"));
  CHECK_THROWS_WITH(iota_values(10) | chain | gpu::collect(dev, {.chunk_elements = std::size_t(1) << 40}),
                    Catch::Contains("allows at most"));
  CHECK_THROWS_WITH(iota_values(10) | gpu::kernel_stage<std::uint32_t>(0, pipeline_test::CopyBody{}) | gpu::collect(dev),
                    Catch::Contains("workgroup of 0"));
}
