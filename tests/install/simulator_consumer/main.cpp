// A user's program that runs kernels and the standard library on the simulator only, built
// against the installed package without the Vulkan backend.
#include <cstdio>
#include <vector>

#include <sprig/dsl.hpp>
#include <sprig/simulator/device.hpp>
#include <sprig/stdlib/scan.hpp>

int main() {
  using namespace sprig;
  auto twice = kernel("twice", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = in[i] * 2u; });
  });
  sim::Device cpu;
  std::vector<std::uint32_t> values{1, 2, 3, 4};
  auto in = cpu.upload(values);
  auto doubled = cpu.alloc<std::uint32_t>(values.size());
  auto sums = cpu.alloc<std::uint32_t>(values.size());
  cpu.run(twice, grid(values.size()), in, doubled);
  inclusive_scan(cpu, doubled, sums);
  std::vector<std::uint32_t> got = cpu.download(sums);
  std::printf("%u %u %u %u\n", got[0], got[1], got[2], got[3]);
  return got == std::vector<std::uint32_t>{2, 6, 12, 20} ? 0 : 1;
}
