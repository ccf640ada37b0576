// `sprig-plot bench`: `in_flight` records at a time, their launches interleaved
// (pos::record_interleaved), all rounds recorded into one sequence after a warm-up round
// that traces and compiles every kernel.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <sprig/stdlib/pos/plotter.hpp>

#include "commands.hpp"
#include "devices.hpp"

namespace sprig_plot {

namespace pos = sprig::pos;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int run_bench(const BenchOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<sprig::Device> device = open_device(options.device);
  const double open_seconds = seconds_since(started);
  const std::uint32_t in_flight =
      options.in_flight ? *options.in_flight : std::uint32_t(pos::default_records_in_flight(device->info()));
  std::vector<std::unique_ptr<pos::Plotter>> plotters;
  for (std::uint32_t i = 0; i < in_flight; ++i) plotters.push_back(make_plotter(*device, options.k, options.mode));
  std::vector<pos::Plotter*> group;
  for (auto& p : plotters) group.push_back(p.get());
  const double plotters_seconds = seconds_since(started) - open_seconds;
  // A stand-in erasure-coded record: timing does not depend on its bytes.
  auto chunks = device->alloc<std::uint32_t>(std::size_t(pos::record_chunks) * pos::chunk_words);
  auto seed_of = [](std::uint32_t i) {
    pos::Seed s{};
    for (std::size_t b = 0; b < s.size(); ++b) s[b] = std::uint8_t(b * 7 + i * 131 + 1);
    return s;
  };
  std::uint32_t next = 0;
  auto record_round = [&](sprig::Sequence& sequence) {
    std::vector<pos::Seed> seeds;
    for (std::uint32_t i = 0; i < in_flight; ++i) seeds.push_back(seed_of(next++));
    pos::record_interleaved(sequence, group, seeds);
    for (auto* p : group) p->record_encoding(sequence, chunks);
  };
  {
    auto warm = device->sequence();
    record_round(warm);
    warm.run_and_wait();
  }
  // What a plotting process pays before its first records: opening the device, tracing,
  // SPIR-V and pipelines (from the disk cache when an earlier process left them there).
  const double startup = seconds_since(started);
  std::string cache = disk_cache_summary(*device);
  std::printf("start-up to the first %u records: %.3f s (opening the device %.3f s, plotters and their buffers %.3f s, "
              "first round with its pipelines %.3f s)%s%s\n",
              in_flight, startup, open_seconds, plotters_seconds, startup - open_seconds - plotters_seconds,
              cache.empty() ? "" : "; ", cache.c_str());
  device->reset_peak_memory();
  auto sequence = device->sequence();
  const std::uint32_t rounds = std::max<std::uint32_t>(1, options.records / in_flight);
  for (std::uint32_t r = 0; r < rounds; ++r) record_round(sequence);
  const auto start = std::chrono::steady_clock::now();
  sequence.run_and_wait();
  const double seconds = seconds_since(start);
  const std::uint32_t plotted = rounds * in_flight;
  std::printf("%s, K = %d, %s rules, %u records, %u in flight (tables, proofs and encoding): %.3f ms per record, "
              "%.2f records/s, %.1f MiB of device memory per record in flight, peak %.1f MiB in all\n",
              device->info().name.c_str(), options.k, pos::mode_name(options.mode), plotted, in_flight,
              seconds * 1e3 / plotted, plotted / seconds, double(plotters[0]->device_bytes()) / (1 << 20),
              double(device->memory_usage().peak_bytes) / (1 << 20));
  return 0;
}

}  // namespace sprig_plot
