// `sprig-plot plot` in one process: the file first (so an unwritable path or a progress file
// of another plot fails before any device work), then the devices, then the records.
#include <cstdio>

#include "commands.hpp"
#include "plot_records.hpp"

namespace sprig_plot {

int run_plot(const PlotOptions& options) {
  ResumableFile file(options.output, plot_identity(options), options.resume);
  try {
    LocalPlotters local = open_local_plotters(options);
    const std::vector<sprig::pos::Seed> seeds = plot_seeds(options, *local.devices[0]);
    plot_records(options, file, local, seeds, /*remote=*/nullptr);
  } catch (...) {
    report_kept_records(file);
    throw;
  }
  std::printf("wrote %u records of K = %d (%s rules) to %s\n", options.records, options.k,
              sprig::pos::mode_name(options.mode), options.output.c_str());
  return 0;
}

}  // namespace sprig_plot
