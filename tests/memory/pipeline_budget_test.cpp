// Stream pipelines under a memory budget: the chunk size shrinks until every chunk in
// flight fits, and the results do not change.
#include <sprig/stdlib/stdlib.hpp>

#include "backends.hpp"

using namespace sprig;
using Catch::Contains;

namespace {

std::vector<std::uint32_t> iota(std::uint32_t n) {
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

template <class Terminal>
std::vector<std::uint32_t> squares_of_odd(const std::vector<std::uint32_t>& values, Terminal terminal) {
  return values | gpu::filter([](UInt x) { return (x & 1u) == 1u; }) | gpu::map([](UInt x) { return x * x; }) |
         terminal;
}

}  // namespace

TEST_CASE("a pipeline under a quarter of its memory gives the same results within the budget") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::vector<std::uint32_t> values = iota(20000);
  gpu::Options unconstrained{.chunk_elements = 8192};
  std::uint64_t held = dev.memory_usage().in_use_bytes;
  dev.reset_peak_memory();
  std::vector<std::uint32_t> expected = squares_of_odd(values, gpu::collect(dev, unconstrained));
  std::uint64_t used = dev.memory_usage().peak_bytes - held;

  for (std::uint64_t budget : {used / 2, used / 4}) {
    INFO("budget " << budget << " of " << used);
    gpu::Options budgeted = unconstrained;
    budgeted.memory_budget = budget;
    dev.reset_peak_memory();
    CHECK(squares_of_odd(values, gpu::collect(dev, budgeted)) == expected);
    CHECK(dev.memory_usage().peak_bytes - held <= budget);
  }
}

TEST_CASE("a pipeline budget too small for one element is refused with the bytes it needs") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  gpu::Options options;
  options.memory_budget = 16;
  CHECK_THROWS_WITH(squares_of_odd(iota(100), gpu::collect(dev, options)),
                    Contains("Options::memory_budget is 16 bytes, but even one element per chunk needs"));
}
