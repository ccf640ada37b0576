// device_print: printf from kernels. One invocation's binary search, step by step, as the
// simulator and the best Vulkan device print it: the same lines from both.
#include <cstdio>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>

using namespace sprig;

int main() {
  auto search = kernel("search", [](ReadBuffer<std::uint32_t> sorted, ReadBuffer<std::uint32_t> keys,
                                    WriteBuffer<std::uint32_t> found) {
    UInt i = global_id().x();
    if_(i < keys.size(), [&] {
      UInt key = keys[i];
      Var<UInt> lo = 0u, hi = sorted.size();
      while_([&] { return lo < hi; }, [&] {
        UInt mid = (lo + hi) / 2u;
        device_print("key {}: [{}, {}) has {} at {}", key, lo, hi, sorted[mid], mid);
        if_(sorted[mid] < key, [&] { lo = mid + 1u; }).else_([&] { hi = mid; });
      });
      found[i] = lo;
    });
  }, workgroup(64));

  std::vector<std::uint32_t> sorted, keys;
  for (std::uint32_t v = 0; v < 1000; ++v) sorted.push_back(3 * v);
  for (std::uint32_t k = 0; k < 200; ++k) keys.push_back(7 * k);

  auto lines_of = [&](sprig::Device& device) {
    PrintOptions options;
    options.filter = PrintFilter::invocation(3);  // key 21 only
    options.keep = true;                          // standard output, and kept for take_printed()
    device.set_print_options(options);
    std::printf("%s:\n", device.name().c_str());
    auto found = device.alloc<std::uint32_t>(keys.size());
    device.run(search, grid(keys.size()), device.upload(sorted), device.upload(keys), found);
    std::vector<std::string> texts;
    for (const PrintedLine& line : device.take_printed().lines) texts.push_back(line.text());
    return texts;
  };
  sim::Device simulator;
  vk::Device gpu = vk::Device::best();
  std::vector<std::string> simulated = lines_of(simulator), printed = lines_of(gpu);
  const bool same = !simulated.empty() && simulated == printed;
  std::printf("%s\n", same ? "the same lines from both" : "the devices printed different lines");
  return same ? 0 : 1;
}
