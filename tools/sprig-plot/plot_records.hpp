// The parts of `sprig-plot plot` that one process and an mpirun job's rank 0 share: this
// process's devices with their plotters, the plot's seeds and identity, and the writer loop,
// which may also serve the workers of other ranks (mpi_plot.cpp) while it waits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <sprig/runtime/device.hpp>
#include <sprig/stdlib/pos/plotter.hpp>

#include "command_line.hpp"
#include "record_dealer.hpp"
#include "resumable_file.hpp"

namespace sprig_plot {

// This process's devices, each with its workers' plotters (one record in flight each).
struct LocalPlotters {
  std::vector<std::unique_ptr<sprig::Device>> devices;
  std::vector<std::string> names;
  std::vector<std::vector<std::unique_ptr<sprig::pos::Plotter>>> plotters;
  std::uint32_t workers() const;
};

// Opens the devices of --device/--devices and makes their plotters (--in-flight, or as many
// as fit). A device too small for K is a UsageError.
LocalPlotters open_local_plotters(const PlotOptions& options);

// What the plot is, in words, for the progress file: the same command gives the same text.
std::string plot_identity(const PlotOptions& options);

// The seed of every record of the plot (--seed, or the sector's seeds hashed on `device`).
std::vector<sprig::pos::Seed> plot_seeds(const PlotOptions& options, sprig::Device& device);

// Workers in other processes (an mpirun job's other ranks), served by the writer's thread.
class RemoteWorkers {
 public:
  virtual ~RemoteWorkers() = default;
  // One name per remote party, as the dealer's devices first_device, first_device + 1, ...
  virtual std::vector<std::string> names() const = 0;
  virtual std::uint32_t workers() const = 0;
  // Answers their requests: deals records (with their seeds) and hands results to `dealer`.
  // Throws when one of them reports a failure.
  virtual void serve(RecordDealer& dealer, std::size_t first_device, const std::vector<sprig::pos::Seed>& seeds) = 0;
  // After the last record (or a failure, `failed`): ends their work and waits until they end.
  virtual void finish(bool failed) noexcept = 0;
};

// Writes the plot's records, from file.resumed_records() on, to `file` and commits it: the
// local workers and any `remote` ones plot them, the writer puts them in record order. On a
// failure, what is written is checkpointed for --resume before the error propagates.
void plot_records(const PlotOptions& options, ResumableFile& file, LocalPlotters& local,
                  const std::vector<sprig::pos::Seed>& seeds, RemoteWorkers* remote);

// After a run that failed: says on stderr what FILE.partial keeps for --resume, if anything.
void report_kept_records(const ResumableFile& file);

}  // namespace sprig_plot
