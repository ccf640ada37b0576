// Whether launches with nothing between them run side by side on the device: one workgroup
// of a long chain of dependent multiply-adds, launched 1, 2, 4 and 8 times on buffers of
// their own in one sequence (the runtime places no barrier between them: it prints the
// count). Where the device overlaps them, 8 take about what 1 takes; where it runs them one
// after another, 8 times as long. Recording independent work interleaved (pos::
// record_interleaved, batches of an MSM) pays only on a device of the first kind.
//
//   bench_dispatch_overlap
#include <chrono>
#include <cstdio>
#include <vector>

#include <sprig/sprig.hpp>

using namespace sprig;

int main() {
  vk::Device gpu = vk::Device::best();
  auto chain = kernel("dispatch_overlap_chain", [](WriteBuffer<std::uint32_t> out, UInt steps) {
    UInt i = global_id().x();
    Var<std::uint32_t> v = i + 1u;
    for_(0u, steps, [&](UInt) { v = v * 1664525u + 1013904223u; });
    out[i] = v.load();
  }, workgroup(64));
  std::vector<DeviceBuffer<std::uint32_t>> outs;
  for (int b = 0; b < 8; ++b) outs.push_back(gpu.alloc<std::uint32_t>(64));
  std::printf("%s: one workgroup per launch, best of 5 sequences\n\n", gpu.name().c_str());
  std::printf("| steps | launches | barriers | ms | against one launch |\n|---|---|---|---|---|\n");
  for (std::uint32_t steps : {1u << 16, 1u << 20}) {
    double one = 0;
    for (int launches : {1, 2, 4, 8}) {
      double best = 1e30;
      std::size_t barriers = 0;
      for (int repeat = 0; repeat < 5; ++repeat) {
        auto sequence = gpu.sequence();
        for (int b = 0; b < launches; ++b) sequence.run(chain, grid(64), outs[std::size_t(b)], steps);
        sequence.finish_recording();  // record before the clock starts
        barriers = vk::barrier_count(sequence.backend());
        auto start = std::chrono::steady_clock::now();
        sequence.run_and_wait();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      }
      if (launches == 1) one = best;
      std::printf("| %u | %d | %zu | %.3f | %.2fx |\n", steps, launches, barriers, best, best / one);
    }
  }
}
