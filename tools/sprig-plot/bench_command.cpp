// `sprig-plot bench`: `in_flight` records at a time, their launches interleaved
// (pos::record_interleaved), all rounds recorded into one sequence after a warm-up round
// that traces and compiles every kernel. With several devices (--devices) each device runs
// the same in its own thread, and the timed sequences start together.
#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
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

// One device's bench: set up and warmed up by the constructor, timed by run().
class DeviceBench {
 public:
  DeviceBench(sprig::Device& device, const BenchOptions& options, std::string label, double open_seconds)
      : device_(device), options_(options), label_(std::move(label)) {
    const auto started = std::chrono::steady_clock::now();
    // A stand-in erasure-coded record: timing does not depend on its bytes. Allocated first, so
    // that the plotters take what a memory budget leaves.
    chunks_ = device.alloc<std::uint32_t>(std::size_t(pos::record_chunks) * pos::chunk_words);
    // Without --in-flight: the device type's best, or as many as fit the memory budget.
    const std::uint32_t wanted =
        options.in_flight ? *options.in_flight : std::uint32_t(pos::default_records_in_flight(device.info()));
    plotters_ = make_plotters(device, options.k, options.mode, wanted, /*as_many_as_fit=*/!options.in_flight,
                              Records::Interleaved);
    in_flight_ = std::uint32_t(plotters_.size());
    for (auto& p : plotters_) group_.push_back(p.get());
    const double plotters_seconds = seconds_since(started);
    {
      auto warm = device.sequence();
      record_round(warm);
      warm.run_and_wait();
    }
    // What a plotting process pays before its first records: opening the device, tracing,
    // SPIR-V and pipelines (from the disk cache when an earlier process left them there).
    const double startup = open_seconds + seconds_since(started);
    std::string cache = disk_cache_summary(device);
    std::printf("%sstart-up to the first %u records: %.3f s (opening the device %.3f s, plotters and their buffers "
                "%.3f s, first round with its pipelines %.3f s)%s%s\n",
                prefix().c_str(), in_flight_, startup, open_seconds, plotters_seconds,
                startup - open_seconds - plotters_seconds, cache.empty() ? "" : "; ", cache.c_str());
  }

  // Records and runs the timed sequence; its seconds.
  double run() {
    device_.reset_peak_memory();
    auto sequence = device_.sequence();
    for (std::uint32_t r = 0; r < rounds(); ++r) record_round(sequence);
    sequence.finish_recording();  // the transients' plan and the command buffer: host work, not timed
    const auto start = std::chrono::steady_clock::now();
    sequence.run_and_wait();
    seconds_ = seconds_since(start);
    return seconds_;
  }

  std::uint32_t plotted() const { return rounds() * in_flight_; }
  double seconds() const { return seconds_; }

  void print() const {
    // Under a budget that has no room for a record, its spilled temporaries are in host memory.
    const std::uint64_t host_bytes = plotters_[0]->workspace().host_bytes();
    char spilled[96] = "";
    if (host_bytes > 0)
      std::snprintf(spilled, sizeof spilled, ", %.1f MiB of temporaries in host memory", double(host_bytes) / (1 << 20));
    std::printf("%s%s, K = %d, %s rules, %u records, %u in flight (tables, proofs and encoding): %.3f ms per record, "
                "%.2f records/s, %.1f MiB of device memory per record in flight, peak %.1f MiB in all%s\n",
                prefix().c_str(), device_.info().name.c_str(), options_.k, pos::mode_name(options_.mode), plotted(),
                in_flight_, seconds_ * 1e3 / plotted(), plotted() / seconds_,
                double(plotters_[0]->device_bytes()) / (1 << 20), double(device_.memory_usage().peak_bytes) / (1 << 20),
                spilled);
  }

 private:
  std::uint32_t rounds() const { return std::max<std::uint32_t>(1, options_.records / in_flight_); }
  std::string prefix() const { return options_.devices.empty() ? "" : label_ + ": "; }

  void record_round(sprig::Sequence& sequence) {
    std::vector<pos::Seed> seeds;
    for (std::uint32_t i = 0; i < in_flight_; ++i) seeds.push_back(seed_of(next_++));
    pos::record_interleaved(sequence, group_, seeds);
    for (auto* p : group_) p->record_encoding(sequence, chunks_);
  }

  static pos::Seed seed_of(std::uint32_t i) {
    pos::Seed s{};
    for (std::size_t b = 0; b < s.size(); ++b) s[b] = std::uint8_t(b * 7 + i * 131 + 1);
    return s;
  }

  sprig::Device& device_;
  const BenchOptions& options_;
  std::string label_;
  std::uint32_t in_flight_ = 1, next_ = 0;
  std::vector<std::unique_ptr<pos::Plotter>> plotters_;
  std::vector<pos::Plotter*> group_;
  sprig::DeviceBuffer<std::uint32_t> chunks_;
  double seconds_ = 0;
};

// Throws one error naming each device that failed: a UsageError (exit status 2) when every
// failure was one (K too large for a device or its memory budget), else a runtime_error.
void throw_device_errors(const std::vector<std::unique_ptr<sprig::Device>>& devices,
                         const std::vector<std::exception_ptr>& errors) {
  std::string message;
  bool all_usage = true;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    if (!errors[d]) continue;
    std::string what;
    try {
      std::rethrow_exception(errors[d]);
    } catch (const UsageError& e) {
      what = e.what();
    } catch (const sprig::MemoryBudgetExceeded& e) {
      what = e.what();
    } catch (const std::exception& e) {
      what = e.what();
      all_usage = false;
    }
    message += (message.empty() ? "" : "; ") + device_label(*devices[d], d, devices.size()) + ": " + what;
  }
  if (message.empty()) return;
  if (all_usage) throw UsageError(message);
  throw std::runtime_error(message);
}

}  // namespace

int run_bench(const BenchOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<sprig::Device>> devices =
      open_devices(options.device, options.devices, options.memory_budget);
  const double open_seconds = seconds_since(started);
  const std::size_t n = devices.size();
  std::vector<std::unique_ptr<DeviceBench>> benches(n);
  std::vector<std::exception_ptr> errors(n);
  std::barrier ready{std::ptrdiff_t(n)};  // the timed sequences start together
  auto run_device = [&](std::size_t d) {
    try {
      benches[d] = std::make_unique<DeviceBench>(*devices[d], options, device_label(*devices[d], d, n), open_seconds);
    } catch (...) {
      errors[d] = std::current_exception();
    }
    ready.arrive_and_wait();
    try {
      if (benches[d]) benches[d]->run();
    } catch (...) {
      errors[d] = std::current_exception();
    }
  };
  if (n == 1) {
    run_device(0);
    if (errors[0]) std::rethrow_exception(errors[0]);
  } else {
    std::vector<std::thread> threads;
    for (std::size_t d = 0; d < n; ++d) threads.emplace_back(run_device, d);
    for (auto& t : threads) t.join();
    throw_device_errors(devices, errors);
  }
  for (auto& bench : benches) bench->print();
  if (n > 1) {
    std::uint32_t plotted = 0;
    double slowest = 0;
    for (auto& bench : benches) {
      plotted += bench->plotted();
      slowest = std::max(slowest, bench->seconds());
    }
    std::printf("all %zu devices at once: %u records in %.3f s, %.2f records/s\n", n, plotted, slowest,
                plotted / slowest);
  }
  return 0;
}

}  // namespace sprig_plot
