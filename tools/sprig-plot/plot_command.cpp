// `sprig-plot plot`: on each device two plotters take turns, so the device plots one record
// while the host downloads and writes another (one plotter when --memory-budget allows
// no more). With several devices (--devices) each has a
// worker thread and a RecordDealer deals the records to them; the file is written in record
// order by the standard library's PlotFileWriter into an AtomicFile, so a failed or killed
// run never leaves a partial FILE.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <sprig/stdlib/pos/plot_file_writer.hpp>
#include <sprig/stdlib/pos/plotter.hpp>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "devices.hpp"
#include "record_dealer.hpp"
#include "sector_seeds.hpp"

namespace sprig_plot {

namespace pos = sprig::pos;

namespace {

using Plotters = std::vector<std::unique_ptr<pos::Plotter>>;

// Device d's worker: plots the records it is dealt, one per plotter in flight, until none is
// left or its device fails. The plotters are made on the main thread, so that a device too
// small for K is a usage error (exit status 2) before any work starts.
void plot_on_device(sprig::Device& device, std::size_t d, Plotters& plotters, const std::vector<pos::Seed>& seeds,
                    RecordDealer& dealer) {
  try {
    const std::size_t slots = plotters.size();
    std::vector<std::optional<sprig::Sequence>> in_flight(slots);
    std::vector<std::uint32_t> record(slots);
    std::size_t oldest = 0, count = 0;
    while (true) {
      while (count < slots) {
        RecordDealer::Deal deal = dealer.take(d, /*wait=*/count == 0);
        if (deal.kind != RecordDealer::Deal::Record) break;
        std::size_t slot = (oldest + count) % slots;
        in_flight[slot].emplace(device.sequence());
        plotters[slot]->record(*in_flight[slot], seeds[deal.record]);
        in_flight[slot]->submit();
        record[slot] = deal.record;
        ++count;
      }
      if (count == 0) return;
      in_flight[oldest]->wait();
      dealer.deliver(d, record[oldest], plotters[oldest]->result());
      oldest = (oldest + 1) % slots;
      --count;
    }
  } catch (const std::exception& e) {
    dealer.fail(d, e.what());
  }
}

std::string progress(std::uint32_t written, std::uint32_t records, double elapsed, const RecordDealer& dealer,
                     std::size_t devices) {
  char text[96];
  std::snprintf(text, sizeof text, "\rplotted %u / %u records, %.2f records/s", written, records, written / elapsed);
  std::string line = text;
  if (devices > 1) {
    std::vector<std::uint32_t> per_device = dealer.delivered();
    line += " (by device:";
    for (std::uint32_t n : per_device) line += " " + std::to_string(n);
    line += ")";
  }
  return line;
}

}  // namespace

int run_plot(const PlotOptions& options) {
  AtomicFile file(options.output);
  std::vector<std::unique_ptr<sprig::Device>> devices =
      open_devices(options.device, options.devices, options.memory_budget);
  const std::vector<pos::Seed> seeds =
      options.seed ? std::vector<pos::Seed>{*options.seed}
                   : sector_seeds(*devices[0], *options.sector_id, options.piece_offset, options.records);

  std::vector<std::string> names;
  for (std::size_t d = 0; d < devices.size(); ++d) names.push_back(device_label(*devices[d], d, devices.size()));
  RecordDealer dealer(options.records, names, 4 * std::uint32_t(devices.size()));
  // Two plotters per device take turns (one plots while the other's record is written);
  // one when a memory budget leaves room for only one.
  std::vector<Plotters> plotters;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    plotters.push_back(make_plotters(*devices[d], options.k, options.mode, 2, /*as_many_as_fit=*/true));
    if (plotters[d].size() < 2) {
      std::fprintf(stderr, "%s: --memory-budget leaves room for one record in flight, not two\n", names[d].c_str());
    }
  }
  pos::PlotFileWriter writer(file.stream(), {options.k, options.mode, options.records}, file.temporary_path());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    workers.emplace_back(plot_on_device, std::ref(*devices[d]), d, std::ref(plotters[d]), std::cref(seeds),
                         std::ref(dealer));
  }
  // Workers end once every record is delivered or their device failed; after an error here
  // (a failed write) the dealer deals nothing more, so they end after their records in flight.
  struct JoinAll {
    std::vector<std::thread>& threads;
    RecordDealer& dealer;
    ~JoinAll() {
      dealer.stop();
      for (auto& t : threads) t.join();
    }
  } join_all{workers, dealer};
  for (std::uint32_t r = 0; r < options.records; ++r) {
    writer.write(seeds[r], dealer.await(r));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%s", progress(r + 1, options.records, elapsed, dealer, devices.size()).c_str());
    std::fflush(stderr);
  }
  std::fprintf(stderr, "\n");
  writer.finish();
  file.commit();
  std::printf("wrote %u records of K = %d (%s rules) to %s\n", options.records, options.k, pos::mode_name(options.mode),
              options.output.c_str());
  return 0;
}

}  // namespace sprig_plot
