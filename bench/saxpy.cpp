// saxpy (y = a*x + y) over large arrays: GB/s of the DSL kernel on the Vulkan device and
// the ratio to the same kernel hand-written in GLSL (bench/shaders/saxpy.comp), measured
// in the same run on the same device; trace, emit and validate times of the DSL kernel;
// and the simulator's lane-operations per second.
//
//   bench_saxpy [--sizes 26,28] [--repeat 20]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>

#include "saxpy.spv.h"

using namespace sprig;

namespace {

auto saxpy_kernel(const std::string& name) {
  return kernel(name, [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  }, workgroup(256));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Median GPU time of `repeat` launches of `k` recorded in one sequence.
template <class K>
double time_kernel(vk::Device& gpu, const K& k, std::size_t n, const DeviceBuffer<float>& x,
                   const DeviceBuffer<float>& y, int repeat) {
  gpu.run(k, grid(n), 1.0f, x, y);  // warm-up (and pipeline creation)
  Sequence s = gpu.sequence();
  for (int r = 0; r < repeat; ++r) s.run(k, grid(n), 1.0f, x, y);
  s.run_and_wait();
  std::vector<double> ms;
  for (const LaunchTiming& t : s.timings()) ms.push_back(t.gpu_ms);
  return median(ms);
}

std::vector<int> parse_sizes(const char* text) {
  std::vector<int> out;
  for (const char* p = text; *p;) {
    out.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> log_sizes{26, 28};
  int repeat = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--sizes")) log_sizes = parse_sizes(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
  }

  auto dsl = saxpy_kernel("saxpy_dsl");
  auto glsl = saxpy_kernel("saxpy_glsl");  // same interface; its SPIR-V comes from GLSL below
  vk::Options options;
  options.spirv_compiler = [](const ir::Kernel& k) {
    if (k.name == "saxpy_glsl") return std::vector<std::uint32_t>(std::begin(saxpy_spirv), std::end(saxpy_spirv));
    compiler::CompileOptions o;
    o.optimize = true;
    return compiler::compile(k, o);
  };
  vk::Device gpu = vk::Device::best(options);
  std::printf("device: %s\n\n", gpu.name().c_str());

  // Trace, emit, validate: what it costs to turn the lambda into a module.
  auto t = std::chrono::steady_clock::now();
  auto traced = saxpy_kernel("saxpy_trace");
  double trace_ms = ms_since(t);
  t = std::chrono::steady_clock::now();
  std::vector<std::uint32_t> words = compiler::emit(*traced.ir());
  double emit_ms = ms_since(t);
  t = std::chrono::steady_clock::now();
  std::string errors = compiler::validation_errors(words);
  double validate_ms = ms_since(t);
  t = std::chrono::steady_clock::now();
  std::vector<std::uint32_t> optimized = compiler::optimize(words);
  double optimize_ms = ms_since(t);
  std::printf("trace %.3f ms, emit %.3f ms (%zu words), validate %.3f ms%s, optimize %.3f ms\n\n", trace_ms, emit_ms,
              words.size(), validate_ms, errors.empty() ? "" : " (INVALID)", optimize_ms);

  std::printf("| elements | sprig ms | GLSL ms | sprig GB/s | GLSL GB/s | sprig / GLSL |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (int log_n : log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (n * sizeof(float) > gpu.info().max_buffer_bytes) {
      std::printf("| 2^%d | skipped: %zu bytes per buffer exceed the device's %llu |\n", log_n, n * sizeof(float),
                  static_cast<unsigned long long>(gpu.info().max_buffer_bytes));
      continue;
    }
    auto x = gpu.alloc<float>(n), y = gpu.alloc<float>(n);
    Sequence init = gpu.sequence();
    init.fill(x, 0x3f800000u).fill(y, 0);
    init.run_and_wait();
    // Alternate the two kernels and keep each one's best median, so neither always runs on
    // a warmer device.
    double dsl_ms = 1e30, glsl_ms = 1e30;
    for (int round = 0; round < 3; ++round) {
      dsl_ms = std::min(dsl_ms, time_kernel(gpu, dsl, n, x, y, repeat));
      glsl_ms = std::min(glsl_ms, time_kernel(gpu, glsl, n, x, y, repeat));
    }
    double bytes = 3.0 * double(n) * sizeof(float);
    std::printf("| 2^%d | %.4f | %.4f | %.1f | %.1f | %.3f |\n", log_n, dsl_ms, glsl_ms, bytes / dsl_ms / 1e6,
                bytes / glsl_ms / 1e6, glsl_ms / dsl_ms);
  }

  // The simulator: lane-operations per second on one core, analyses as configured.
  sim::Device cpu;
  const std::size_t sim_n = 1 << 20;
  auto sx = cpu.upload(std::vector<float>(sim_n, 1.0f));
  auto sy = cpu.upload(std::vector<float>(sim_n, 2.0f));
  t = std::chrono::steady_clock::now();
  cpu.run(dsl, grid(sim_n), 2.0f, sx, sy);
  double sim_ms = ms_since(t);
  std::uint64_t lane_ops = cpu.report().lane_operations;
  std::printf("\nsimulator: %zu elements in %.1f ms, %llu lane-operations, %.1f M lane-ops/s\n", sim_n, sim_ms,
              static_cast<unsigned long long>(lane_ops), double(lane_ops) / sim_ms / 1e3);
  return errors.empty() ? 0 : 1;
}
