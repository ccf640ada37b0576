// `sprig-plot plot`'s work: each device has --in-flight worker threads, each with its own
// plotter, so the host records one record's sequence while the device runs others'. A
// RecordDealer deals the records to the workers of every device (--devices) and of any other
// ranks; the file is written in record order by the standard library's PlotFileWriter into a
// ResumableFile, so a failed or killed run never leaves a partial FILE and can be resumed.
#include "plot_records.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <thread>

#include <sprig/stdlib/hash/hex.hpp>
#include <sprig/stdlib/pos/plot_file_writer.hpp>

#include "devices.hpp"
#include "injected_fault.hpp"
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
      inject_test_faults(d);
      sprig::Sequence sequence = device.sequence();
      plotter.record(sequence, seeds[deal.record]);
      sequence.run_and_wait();
      dealer.deliver(d, deal.record, plotter.result());
    }
  } catch (const std::exception& e) {
    dealer.fail(d, e.what());
  }
}

std::string progress(std::uint32_t written, std::uint32_t records, std::uint32_t resumed, double elapsed,
                     const RecordDealer& dealer, bool remote) {
  char text[128];
  std::snprintf(text, sizeof text, "\rplotted %u / %u records, %.2f records/s", written, records,
                (written - resumed) / elapsed);
  std::string line = text;
  std::vector<std::uint32_t> per_device = dealer.delivered();
  if (per_device.size() > 1) {
    line += remote ? " (by device and rank:" : " (by device:";
    for (std::uint32_t n : per_device) line += " " + std::to_string(n);
    line += ")";
  }
  return line;
}

// How often the writer makes its records durable for --resume: each costs a disk flush.
// SPRIG_PLOT_CHECKPOINT_MS overrides the second (0: after every record).
std::chrono::milliseconds checkpoint_interval() {
  const char* text = std::getenv("SPRIG_PLOT_CHECKPOINT_MS");
  return std::chrono::milliseconds(text ? std::strtoull(text, nullptr, 10) : 1000);
}


}  // namespace

std::uint32_t LocalPlotters::workers() const {
  std::uint32_t n = 0;
  for (const auto& p : plotters) n += std::uint32_t(p.size());
  return n;
}

LocalPlotters open_local_plotters(const PlotOptions& options) {
  LocalPlotters local;
  local.devices = open_devices(options.device, options.devices, options.memory_budget);
  for (std::size_t d = 0; d < local.devices.size(); ++d)
    local.names.push_back(device_label(*local.devices[d], d, local.devices.size()));
  // Records in flight on each device: its workers' plotters; fewer when its memory leaves
  // room for fewer and --in-flight was not given.
  for (auto& device : local.devices) {
    // No more than there are records: one record needs one plotter.
    const std::uint32_t in_flight =
        std::min(options.in_flight.value_or(plot_in_flight(device->info())), options.records);
    local.plotters.push_back(
        make_plotters(*device, options.k, options.mode, in_flight, /*as_many_as_fit=*/!options.in_flight,
                      Records::Separate));
  }
  return local;
}

std::string plot_identity(const PlotOptions& options) {
  std::string identity = "K " + std::to_string(options.k) + ", " + pos::mode_name(options.mode) + " rules, ";
  if (options.seed) return identity + "the record of seed " + sprig::hash::to_hex(*options.seed);
  return identity + std::to_string(options.records) + " records of sector " +
         sprig::hash::to_hex(*options.sector_id) + " from piece offset " + std::to_string(options.piece_offset);
}

std::vector<pos::Seed> plot_seeds(const PlotOptions& options, sprig::Device& device) {
  return options.seed ? std::vector<pos::Seed>{*options.seed}
                      : sector_seeds(device, *options.sector_id, options.piece_offset, options.records);
}

void plot_records(const PlotOptions& options, ResumableFile& file, LocalPlotters& local,
                  const std::vector<pos::Seed>& seeds, RemoteWorkers* remote) {
  const std::uint32_t first = file.resumed_records();
  const pos::PlotFileHeader header{options.k, options.mode, options.records};
  pos::PlotFileWriter writer = first > 0 ? pos::PlotFileWriter::continuing(file.stream(), header,
                                                                           file.partial_path(), first)
                                         : pos::PlotFileWriter(file.stream(), header, file.partial_path());
  if (first > 0) std::fprintf(stderr, "resuming after %u of %u records (%s)\n", first, options.records,
                              file.partial_path().c_str());

  std::vector<std::string> names = local.names;
  std::uint32_t workers_in_all = local.workers();
  const std::size_t first_remote = names.size();
  if (remote) {
    for (const std::string& name : remote->names()) names.push_back(name);
    workers_in_all += remote->workers();
  }
  // Finished records wait in memory for the writer: at most a few per worker.
  RecordDealer dealer(options.records, names, 2 * workers_in_all, first);
  const auto start = std::chrono::steady_clock::now();
  const std::chrono::milliseconds checkpoints = checkpoint_interval();
  std::vector<std::thread> workers;
  // Workers end once every record is delivered or their device failed; after an error here
  // (a failed write, a failed rank) the dealer deals nothing more, so they end after their
  // records in flight, and the remote ranks are told to stop.
  struct JoinAll {
    std::vector<std::thread>& threads;
    RecordDealer& dealer;
    RemoteWorkers* remote;
    bool failed = true;
    ~JoinAll() {
      dealer.stop();
      if (remote) remote->finish(failed);
      for (auto& t : threads) t.join();
    }
  } join_all{workers, dealer, remote};
  for (std::size_t d = 0; d < local.devices.size(); ++d) {
    for (auto& plotter : local.plotters[d]) {
      workers.emplace_back(plot_on_device, std::ref(*local.devices[d]), d, std::ref(*plotter), std::cref(seeds),
                           std::ref(dealer));
    }
  }
  // Writes the records in order as they are delivered, with the progress line.
  auto write_all = [&] {
    for (std::uint32_t r = first; r < options.records; ++r) {
      writer.write(seeds[r], dealer.await(r));
      file.checkpoint_now_and_then(r + 1, checkpoints);
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "%s", progress(r + 1, options.records, first, elapsed, dealer, remote).c_str());
      std::fflush(stderr);
    }
    std::fprintf(stderr, "\n");
    writer.finish();
  };
  try {
    if (!remote) {
      write_all();
    } else {
      // This thread alone talks to the other ranks (MPI_THREAD_FUNNELED) and takes in their
      // records, while another writes the file: receiving a rank's record (5 MiB at K = 20)
      // and writing one would otherwise queue behind each other.
      std::exception_ptr write_error;
      std::atomic<bool> written{false};
      std::thread writing([&] {
        try {
          write_all();
        } catch (...) {
          write_error = std::current_exception();
        }
        written = true;
      });
      try {
        while (!written) {
          remote->serve(dealer, first_remote, seeds);
          std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
      } catch (...) {
        dealer.stop();  // the writer's wait for a record ends
        writing.join();
        throw;
      }
      writing.join();
      if (write_error) std::rethrow_exception(write_error);
    }
    join_all.failed = false;
  } catch (...) {
    std::fprintf(stderr, "\n");
    try {
      file.checkpoint(writer.records_written());
    } catch (const std::exception&) {  // the error that got us here says more
    }
    throw;
  }
  file.commit();
}

void report_kept_records(const ResumableFile& file) {
  if (!file.kept()) return;
  std::fprintf(stderr, "sprig-plot: %s keeps the first %u records; the same command with --resume continues from there\n",
               file.partial_path().c_str(), file.kept_records());
}

}  // namespace sprig_plot
