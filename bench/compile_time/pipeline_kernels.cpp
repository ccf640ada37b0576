// Compile-time probe: a translation unit with a dozen stream pipelines, as a user writes
// them. Built like any benchmark; bench/compile_time/measure.sh times its compilation.
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/pipeline/pipeline.hpp>

using namespace sprig;

int main() {
  sim::Device dev;
  std::vector<std::uint32_t> in(4096);
  std::iota(in.begin(), in.end(), 0u);
  std::vector<float> floats(in.begin(), in.end());
  std::uint64_t check = 0;

  check += (in | gpu::map([](UInt x) { return x + 1u; }) | gpu::collect(dev)).size();
  check += in | gpu::filter([](UInt x) { return x % 7u == 0u; }) | gpu::count(dev);
  check += (in | gpu::map([](UInt x) { return cast<float>(x) * 0.5f; }) | gpu::filter([](Float f) { return f >= 7.0f; })
            | gpu::map([](Float f) { return cast<std::int32_t>(f) - 10; }) | gpu::collect(dev))
               .size();
  check += (in | gpu::map([](UInt x) { return x * x; }) | gpu::collect(dev)).size();
  check += (floats | gpu::map([](Float f) { return Vec4(f, f + 1.0f, f + 2.0f, f + 3.0f); }) | gpu::collect(dev)).size();
  check += (in | gpu::filter([](UInt x) { return (x & 3u) == 1u; }) | gpu::map([](UInt x) { return x >> 1u; }) | gpu::collect(dev)).size();
  check += (in | gpu::map([](UInt x) { return select(x > 100u, x - 100u, 0u); }) | gpu::collect(dev)).size();
  check += floats | gpu::filter([](Float f) { return f < 1000.0f; }) | gpu::count(dev);
  check += (in | gpu::map([](UInt x) { return mod(cast<std::int32_t>(x) - 2000, 17); }) | gpu::collect(dev)).size();
  check += in | gpu::map([](UInt x) { return x ^ (x >> 3u); }) | gpu::filter([](UInt x) { return x > 50u; }) | gpu::count(dev);
  check += (floats | gpu::map([](Float f) { return sqrt(f) + 1.0f; }) | gpu::collect(dev)).size();
  check += (in | gpu::map([](UInt x) { return min(x, 1234u); }) | gpu::collect(dev)).size();

  std::printf("%llu\n", static_cast<unsigned long long>(check));
  return 0;
}
