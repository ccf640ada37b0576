// One kernel on both backends: the results agree, and the simulator says how the kernel
// uses the hardware, line by line.
#include <cstdio>
#include <iostream>
#include <vector>

#include <sprig/sprig.hpp>

using namespace sprig;

int main() {
  // A hash per element; odd elements take a longer path (a divergent branch).
  auto mix = kernel("mix", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] {
      Var<UInt> h = in[i] * 0x9E3779B9u;
      if_((i & 1u) == 1u, [&] {
        for_(0u, 8u, [&](UInt) { h = rotate_left(h * 0x85EBCA6Bu, 13u) ^ (h >> 7u); });
      });
      out[i] = h;
    });
  }, workgroup(64));

  std::vector<std::uint32_t> input(1000);
  for (std::uint32_t i = 0; i < input.size(); ++i) input[i] = i;

  auto run_on = [&](sprig::Device& device) {
    auto in = device.upload(input);
    auto out = device.alloc<std::uint32_t>(input.size());
    device.run(mix, grid(input.size()), in, out);
    return device.download(out);
  };

  vk::Device gpu = vk::Device::best();
  sim::Device cpu;
  std::vector<std::uint32_t> on_gpu = run_on(gpu), on_cpu = run_on(cpu);
  std::printf("%s and the simulator %s\n", gpu.name().c_str(), on_gpu == on_cpu ? "agree" : "DISAGREE");
  std::cout << cpu.report();
  return on_gpu == on_cpu ? 0 : 1;
}
