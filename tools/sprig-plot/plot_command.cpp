// `sprig-plot plot`: each device has --in-flight worker threads, each with its own plotter,
// so the host records one record's sequence while the device runs others'. A RecordDealer
// deals the records to the workers of every device (--devices); the file is written in record
// order by the standard library's PlotFileWriter into an AtomicFile, so a failed or killed
// run never leaves a partial FILE.
#include <algorithm>
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

// One worker of device d: plots the records it is dealt with its own plotter, one at a time,
// until none is left or the device fails. A device's workers record their sequences at
// once, so the host's recording of one record overlaps the device's work on another. The
// plotters are made on the main thread, so that a device too small for K is a usage error
// (exit status 2) before any work starts.
void plot_on_device(sprig::Device& device, std::size_t d, pos::Plotter& plotter, const std::vector<pos::Seed>& seeds,
                    RecordDealer& dealer) {
  try {
    while (true) {
      RecordDealer::Deal deal = dealer.take(d, /*wait=*/true);
      if (deal.kind != RecordDealer::Deal::Record) return;
      sprig::Sequence sequence = device.sequence();
      plotter.record(sequence, seeds[deal.record]);
      sequence.run_and_wait();
      dealer.deliver(d, deal.record, plotter.result());
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
  // Records in flight on each device: its workers' plotters; fewer when a memory budget
  // leaves room for fewer and --in-flight was not given.
  std::vector<std::vector<std::unique_ptr<pos::Plotter>>> plotters;
  std::uint32_t workers_in_all = 0;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    // No more than there are records: one record needs one plotter.
    const std::uint32_t in_flight =
        std::min(options.in_flight.value_or(plot_in_flight(devices[d]->info())), options.records);
    plotters.push_back(make_plotters(*devices[d], options.k, options.mode, in_flight,
                                     /*as_many_as_fit=*/!options.in_flight));
    workers_in_all += std::uint32_t(plotters[d].size());
  }
  // Finished records wait in memory for the writer: at most a few per worker.
  RecordDealer dealer(options.records, names, 2 * workers_in_all);
  pos::PlotFileWriter writer(file.stream(), {options.k, options.mode, options.records}, file.temporary_path());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    for (auto& plotter : plotters[d]) {
      workers.emplace_back(plot_on_device, std::ref(*devices[d]), d, std::ref(*plotter), std::cref(seeds),
                           std::ref(dealer));
    }
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
