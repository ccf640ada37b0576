// The README's demo: a few kernels on the best Vulkan device, then the same kernels on the
// simulator, with timings and the simulator's report.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include "mandelbrot.hpp"

using namespace sprig;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Runs the demo kernels on `device`; returns a checksum of their results.
std::uint64_t run_demo(sprig::Device& device) {
  auto saxpy = kernel("saxpy", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  }, workgroup(256));

  const std::size_t n = 1 << 16;
  std::vector<float> xs(n, 1.5f), ys(n, 0.25f);
  auto x = device.upload(xs);
  auto y = device.upload(ys);
  auto start = std::chrono::steady_clock::now();
  device.run(saxpy, grid(n), 2.0f, x, y);
  std::printf("  saxpy over %zu floats: %.2f ms\n", n, ms_since(start));
  std::vector<float> result = device.download(y);

  examples::View view{-2.2f, -1.2f, 2.4f / 120.0f, 160, 120, 64};
  auto iterations = device.alloc<std::uint32_t>(std::size_t(view.width) * view.height);
  start = std::chrono::steady_clock::now();
  device.run(examples::mandelbrot_kernel(), grid(view.width, view.height), view, iterations);
  std::printf("  mandelbrot %ux%u: %.2f ms\n", view.width, view.height, ms_since(start));

  std::uint64_t checksum = 0;
  for (float f : result) checksum += std::uint64_t(f * 4);
  for (std::uint32_t k : device.download(iterations)) checksum = checksum * 31 + k;
  return checksum;
}

}  // namespace

int main() {
  for (const DeviceInfo& d : vk::list_devices()) std::printf("vulkan device: %s (%s)\n", d.name.c_str(), d.type.c_str());
  vk::Device gpu = vk::Device::best();
  std::printf("on %s:\n", gpu.name().c_str());
  std::uint64_t a = run_demo(gpu);
  sim::Device cpu;
  std::printf("on the simulator:\n");
  std::uint64_t b = run_demo(cpu);
  std::printf("results %s\n\n", a == b ? "agree" : "DIFFER");
  std::cout << cpu.report();
  return a == b ? 0 : 1;
}
