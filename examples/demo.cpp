// The README's demo: kernels on the best Vulkan device, then the same kernels on the
// simulator, with timings, a comparison of the results and the simulator's report.
// Integer results must agree bit for bit; float results may differ in the last bits where
// the GPU fuses multiply-adds, so the demo reports how close they are.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

#include "mandelbrot.hpp"

using namespace sprig;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

struct Results {
  std::vector<float> saxpy;
  std::vector<std::uint32_t> mandelbrot;
  std::vector<std::uint32_t> hashes;
};

Results run_demo(sprig::Device& device) {
  auto saxpy = kernel("saxpy", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  }, workgroup(256));
  auto hash = kernel("hash", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] {
      Var<UInt> h = i;
      for_(0u, i % 16u, [&](UInt) { h = rotate_left(h * 0x9E3779B9u, 5u) ^ (h >> 11u); });
      out[i] = h;
    });
  }, workgroup(64));
  Results r;
  // Kernels are traced when created (above). A kernel's first run also turns it into what
  // the device runs (SPIR-V and a driver pipeline on Vulkan, unless the disk cache has them;
  // an interpreter program on the simulator): shown apart from the run itself, which on
  // Vulkan is the GPU's own timestamps and on the simulator the interpretation.
  auto timed = [&](const char* what, double trace_ms, auto&& record) {
    auto start = std::chrono::steady_clock::now();
    Sequence sequence = device.sequence();
    record(sequence);
    sequence.run_and_wait();
    double wall = ms_since(start);
    double run = 0;
    for (const LaunchTiming& t : sequence.timings()) run += t.gpu_ms;
    std::printf("  %-26s %7.2f %15.2f %8.3f %16.2f\n", what, trace_ms, wall - run, run, wall);
  };
  std::printf("  %-26s %7s %15s %8s %16s\n", "milliseconds", "trace", "compile, submit", "run", "first run (wall)");

  const std::size_t n = 1 << 16;
  std::vector<float> xs(n), ys(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = float(i) * 0.001f;
    ys[i] = 1.0f / float(i + 1);
  }
  auto x = device.upload(xs);
  auto y = device.upload(ys);
  timed("saxpy, 65536 floats", saxpy.trace_ms(), [&](Sequence& s) { s.run(saxpy, grid(n), 2.5f, x, y); });
  r.saxpy = device.download(y);

  examples::View view{-2.2f, -1.2f, 2.4f / 120.0f, 160, 120, 64};
  auto iterations = device.alloc<std::uint32_t>(std::size_t(view.width) * view.height);
  const auto& mandelbrot = examples::mandelbrot_kernel();
  timed("mandelbrot, 160x120", mandelbrot.trace_ms(),
        [&](Sequence& s) { s.run(mandelbrot, grid(view.width, view.height), view, iterations); });
  r.mandelbrot = device.download(iterations);

  auto hashes = device.alloc<std::uint32_t>(4096);
  timed("integer hash, 4096 values", hash.trace_ms(), [&](Sequence& s) { s.run(hash, grid(4096), hashes); });
  r.hashes = device.download(hashes);
  return r;
}

}  // namespace

int main() {
  for (const DeviceInfo& d : vk::list_devices()) std::printf("vulkan device: %s (%s)\n", d.name.c_str(), d.type.c_str());
  vk::Device gpu = vk::Device::best();
  std::printf("\non %s:\n", gpu.name().c_str());
  Results a = run_demo(gpu);
  sim::Device cpu;
  std::printf("on the simulator:\n");
  Results b = run_demo(cpu);

  double worst = 0;
  for (std::size_t i = 0; i < a.saxpy.size(); ++i)
    worst = std::max(worst, double(std::abs(a.saxpy[i] - b.saxpy[i])) / std::max(1e-30, double(std::abs(b.saxpy[i]))));
  std::size_t same_pixels = 0;
  for (std::size_t i = 0; i < a.mandelbrot.size(); ++i) same_pixels += a.mandelbrot[i] == b.mandelbrot[i];
  bool hashes_agree = a.hashes == b.hashes;
  std::printf("\nsaxpy: largest relative difference %.2g\n", worst);
  std::printf("mandelbrot: %zu of %zu pixels identical (float rounding may move boundary pixels)\n", same_pixels,
              a.mandelbrot.size());
  std::printf("integer hash: %s\n\n", hashes_agree ? "identical on both backends" : "DIFFERENT (a bug)");
  std::cout << cpu.report();
  return hashes_agree ? 0 : 1;
}
