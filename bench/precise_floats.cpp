// The cost of precise-float mode (docs/language.md, "Precise floats"): a division-heavy
// kernel, a square-root-heavy one and the Mandelbrot example, each plain and precise, GPU time per
// launch on the Vulkan device, and how many outputs of each differ from the host's IEEE-754
// evaluation in the same order (this file is compiled with -ffp-contract=off).
//
//   bench_precise_floats [--log-size 22] [--repeat 10] [--mandelbrot 1920x1080] [--iterations 512]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>

#include "../examples/mandelbrot.hpp"

using namespace sprig;

namespace {

constexpr int kTerms = 8;  // divisions or square roots per element

enum class Work { Divide, Sqrt };

auto float_kernel(Work work, bool precise) {
  std::string name = std::string(work == Work::Divide ? "divide" : "sqrt") + (precise ? "_precise" : "_plain");
  return kernel(name, [work](ReadBuffer<float> a, ReadBuffer<float> b, WriteBuffer<float> out) {
    UInt i = global_id().x();
    if_(i < a.size(), [&] {
      Float x = a[i], y = b[i], sum = 0.0f;
      for (int k = 0; k < kTerms; ++k) sum = sum + (work == Work::Divide ? x / (y + float(k)) : sqrt(x + float(k)));
      out[i] = sum;
    });
  }, workgroup(256).precise(precise));
}

float float_host(Work work, float x, float y) {
  float sum = 0.0f;
  for (int k = 0; k < kTerms; ++k) sum = sum + (work == Work::Divide ? x / (y + float(k)) : std::sqrt(x + float(k)));
  return sum;
}

std::uint32_t mandelbrot_host(const examples::View& v, std::uint32_t px, std::uint32_t py) {
  float cx = v.x0 + float(px) * v.scale, cy = v.y0 + float(py) * v.scale, zx = 0, zy = 0;
  std::uint32_t n = 0;
  while (n < v.max_iterations && zx * zx + zy * zy <= 4.0f) {
    float t = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = t;
    ++n;
  }
  return n;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median GPU time of `repeat` launches recorded in one sequence, after a warm-up launch.
template <class Launch>
double time_launches(vk::Device& gpu, const Launch& launch, int repeat) {
  Sequence warm = gpu.sequence();
  launch(warm);
  warm.run_and_wait();
  Sequence s = gpu.sequence();
  for (int r = 0; r < repeat; ++r) launch(s);
  s.run_and_wait();
  std::vector<double> ms;
  for (const LaunchTiming& t : s.timings()) ms.push_back(t.gpu_ms);
  return median(ms);
}

template <class T>
std::size_t count_different(const std::vector<T>& a, const std::vector<T>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return n;
}

void row(const char* name, double plain_ms, double precise_ms, std::size_t plain_off, std::size_t precise_off,
         std::size_t total) {
  std::printf("| %s | %.4f | %.4f | %.2f | %zu of %zu | %zu of %zu |\n", name, plain_ms, precise_ms,
              precise_ms / plain_ms, plain_off, total, precise_off, total);
}

}  // namespace

int main(int argc, char** argv) {
  int log_size = 22, repeat = 10;
  std::uint32_t width = 1920, height = 1080, iterations = 512;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--log-size")) log_size = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--mandelbrot")) std::sscanf(argv[i + 1], "%ux%u", &width, &height);
    else if (!std::strcmp(argv[i], "--iterations")) iterations = std::uint32_t(std::atoi(argv[i + 1]));
  }
  vk::Device gpu = vk::Device::best();
  std::printf("device: %s\n\n", gpu.name().c_str());
  std::printf("| kernel | plain ms | precise ms | precise / plain | plain outputs off IEEE | precise outputs off IEEE |\n");
  std::printf("|---|---|---|---|---|---|\n");

  // Division or square root: operands in [1, 4), kTerms per element.
  std::size_t n = std::size_t(1) << log_size;
  std::mt19937 random(1);
  std::uniform_real_distribution<float> operand(1.0f, 4.0f);
  std::vector<float> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = operand(random);
    b[i] = operand(random);
  }
  auto da = gpu.upload(a), db = gpu.upload(b);
  auto out_plain = gpu.alloc<float>(n), out_precise = gpu.alloc<float>(n);
  double plain_ms = 1e30, precise_ms = 1e30;
  for (Work work : {Work::Divide, Work::Sqrt}) {
    std::vector<float> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = float_host(work, a[i], b[i]);
    auto plain = float_kernel(work, false), precise = float_kernel(work, true);
    plain_ms = precise_ms = 1e30;
    for (int round = 0; round < 3; ++round) {  // alternate, keep each one's best median
      plain_ms =
          std::min(plain_ms, time_launches(gpu, [&](Sequence& s) { s.run(plain, grid(n), da, db, out_plain); }, repeat));
      precise_ms = std::min(
          precise_ms, time_launches(gpu, [&](Sequence& s) { s.run(precise, grid(n), da, db, out_precise); }, repeat));
    }
    std::string name = std::string(work == Work::Divide ? "8 divisions" : "8 square roots") + " per element, 2^" +
                       std::to_string(log_size) + " elements";
    row(name.c_str(), plain_ms, precise_ms, count_different(gpu.download(out_plain), host),
        count_different(gpu.download(out_precise), host), n);
  }

  // Mandelbrot: + - * and comparisons only; precise mode only forbids contraction.
  examples::View view{-2.2f, -1.2f, 2.4f / float(height), width, height, iterations};
  std::vector<std::uint32_t> counts(std::size_t(width) * height);
  for (std::uint32_t py = 0; py < height; ++py)
    for (std::uint32_t px = 0; px < width; ++px) counts[std::size_t(py) * width + px] = mandelbrot_host(view, px, py);
  bool before = precise_floats_default();
  set_precise_floats(false);
  auto mandelbrot_plain = examples::mandelbrot_kernel();
  set_precise_floats(true);
  auto mandelbrot_precise = examples::mandelbrot_kernel();
  set_precise_floats(before);
  auto it_plain = gpu.alloc<std::uint32_t>(counts.size()), it_precise = gpu.alloc<std::uint32_t>(counts.size());
  plain_ms = precise_ms = 1e30;
  for (int round = 0; round < 3; ++round) {
    plain_ms = std::min(plain_ms, time_launches(gpu, [&](Sequence& s) {
      s.run(mandelbrot_plain, grid(width, height), view, it_plain);
    }, repeat));
    precise_ms = std::min(precise_ms, time_launches(gpu, [&](Sequence& s) {
      s.run(mandelbrot_precise, grid(width, height), view, it_precise);
    }, repeat));
  }
  std::string name = "Mandelbrot " + std::to_string(width) + "x" + std::to_string(height) + ", " + std::to_string(iterations) +
         " iterations";
  row(name.c_str(), plain_ms, precise_ms, count_different(gpu.download(it_plain), counts),
      count_different(gpu.download(it_precise), counts), counts.size());
  return 0;
}
