// Proof-of-space plotting: records per second for the whole chain of one record (keystream,
// F1, bucketing, tables 2..7, proofs) at K = 20 with 1, 2 and 4 records in flight, the GPU
// time of every kernel, and the device memory a record in flight holds; Abundance's rules,
// or Subspace's with --mode subspace. Where the tests were built, the CPU reference
// (tests/pos/reference, single-threaded) plots the same seed in the same run. --read-back N
// plots N more records one at a time, each read back (`Plotter::plot`: the latency of a
// record alone), and under Subspace's rules counts those plotted again because a table
// outgrew its room (subspace.hpp).
//
//   bench_pos [--k 20] [--records 20] [--mode abundance|subspace] [--read-back N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/pos/pos.hpp>

#ifdef SPRIG_BENCH_POS_REFERENCE
#include "pos_reference.hpp"
#endif

using namespace sprig;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

pos::Seed seed_of(std::uint32_t i) {
  pos::Seed seed{};
  for (std::size_t b = 0; b < seed.size(); ++b) seed[b] = std::uint8_t(b * 7 + i * 131 + 1);
  return seed;
}

}  // namespace

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  const bool cpu = gpu.info().type == "cpu";
  int k = cpu ? 16 : 20, records = cpu ? 2 : 20, read_back = 0;
  pos::Mode mode = pos::Mode::Abundance;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--k")) k = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--records")) records = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--read-back")) read_back = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--mode")) mode = std::strcmp(argv[i + 1], "subspace") ? pos::Mode::Abundance : pos::Mode::Subspace;
  }
  std::printf("Plotting at K = %d on %s (%s), %s rules\n\n", k, gpu.name().c_str(), gpu.info().backend.c_str(),
              pos::mode_name(mode));
  pos::Plotter plotter(gpu, k, mode);
  auto first = std::chrono::steady_clock::now();
  std::size_t proofs = plotter.plot(seed_of(0)).count();
  const double first_s = seconds_since(first);

  // Per-kernel GPU times of one record.
  auto one = gpu.sequence();
  plotter.record(one, seed_of(1));
  one.run_and_wait();
  struct KernelTotal {
    double ms = 0;
    int launches = 0;
    std::string statistics;  // the driver's registers, spills, ...: what occupancy depends on
  };
  std::map<std::string, KernelTotal> per_kernel;
  double gpu_total = 0;
  for (const LaunchTiming& t : one.timings()) {
    KernelTotal& total = per_kernel[t.kernel];
    total.ms += t.gpu_ms;
    total.launches += 1;
    if (t.statistics && t.statistics->available()) total.statistics = t.statistics->text();
    gpu_total += t.gpu_ms;
  }

  // Records back to back in one sequence, 1, 2 or 4 in flight (their launches interleaved).
  std::printf("| device | K | records in flight | ms per record | records/s | MiB per record in flight | proofs (first seed) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  std::vector<std::unique_ptr<pos::Plotter>> plotters;
  plotters.push_back(std::make_unique<pos::Plotter>(std::move(plotter)));
  for (std::size_t in_flight : {1, 2, 4}) {
    while (plotters.size() < in_flight)  // one workspace, which grows to hold the interleaved records
      plotters.push_back(std::make_unique<pos::Plotter>(
          gpu, k, mode, pos::PlotterOptions{pos::ParentLayout::Auto, plotters[0]->workspace()}));
    std::vector<pos::Plotter*> group;
    for (std::size_t i = 0; i < in_flight; ++i) group.push_back(plotters[i].get());
    std::uint32_t next = 2;
    {  // warm-up: the new plotters' first use, and the sorts' temporaries in the memory pool
      auto warm = gpu.sequence();
      std::vector<pos::Seed> seeds;
      for (std::size_t i = 0; i < in_flight; ++i) seeds.push_back(seed_of(next++));
      pos::record_interleaved(warm, group, seeds);
      warm.run_and_wait();
    }
    auto many = gpu.sequence();
    const int rounds = std::max<int>(1, records / int(in_flight));
    for (int r = 0; r < rounds; ++r) {
      std::vector<pos::Seed> seeds;
      for (std::size_t i = 0; i < in_flight; ++i) seeds.push_back(seed_of(next++));
      pos::record_interleaved(many, group, seeds);
    }
    many.finish_recording();  // the transients' plan and the command buffer: host work, not timed
    auto start = std::chrono::steady_clock::now();
    many.run_and_wait();
    const double per_record_ms = seconds_since(start) * 1e3 / double(rounds * int(in_flight));
    std::printf("| %s | %d | %zu | %.3f | %.1f | %.1f | %zu |\n", gpu.name().c_str(), k, in_flight, per_record_ms,
                1e3 / per_record_ms, double(plotters[0]->device_bytes()) / (1 << 20), proofs);
    std::fflush(stdout);
  }
#ifdef SPRIG_BENCH_POS_REFERENCE
  {
    pos_ref::Seed seed{};
    pos::Seed s = seed_of(0);
    std::copy(s.begin(), s.end(), seed.begin());
    auto ref_start = std::chrono::steady_clock::now();
    auto tables =
        pos_ref::build_tables(seed, k, mode == pos::Mode::Abundance ? pos_ref::Mode::Abundance : pos_ref::Mode::Subspace);
    auto ref = pos_ref::create_proofs(tables);
    std::printf("| CPU reference (one thread) | %d | 1 | %.1f | %.2f | - | %zu |\n", k, seconds_since(ref_start) * 1e3,
                1.0 / seconds_since(ref_start), ref.count());
  }
#endif
  std::printf("\nFirst record (traces and compiles every kernel): %.3f s\n", first_s);
  std::printf("\nGPU time of one record by kernel (timestamp queries), total %.3f ms:\n\n", gpu_total);
  std::printf("| kernel | launches | ms | driver statistics |\n|---|---|---|---|\n");
  for (const auto& [name, t] : per_kernel)
    std::printf("| %s | %d | %.3f | %s |\n", name.c_str(), t.launches, t.ms, t.statistics.c_str());

  if (read_back > 0) {
    pos::Plotter& alone = *plotters[0];
    const std::uint64_t before = alone.records_plotted_again();
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < read_back; ++r) alone.plot(seed_of(std::uint32_t(1000 + r)));
    std::printf("\n%d records plotted one at a time and read back: %.3f ms per record", read_back,
                seconds_since(start) * 1e3 / read_back);
    if (mode == pos::Mode::Subspace) {
      std::printf("; %llu plotted again for want of room; tables 2..6 have room for",
                  static_cast<unsigned long long>(alone.records_plotted_again() - before));
      for (int t = 2; t <= 6; ++t) std::printf(" %u", alone.room(t));
      std::printf(" entries");
    }
    std::printf("\n");
  }
}
