// `sprig-plot plot`: two plotters take turns, so the device plots record r + 1 while the
// host downloads and writes record r. The file is written by the standard library's
// PlotFileWriter into an AtomicFile, so a failed or killed run never leaves a partial FILE.
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include <sprig/stdlib/pos/plot_file_writer.hpp>
#include <sprig/stdlib/pos/plotter.hpp>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "devices.hpp"
#include "sector_seeds.hpp"

namespace sprig_plot {

namespace pos = sprig::pos;

int run_plot(const PlotOptions& options) {
  AtomicFile file(options.output);
  std::unique_ptr<sprig::Device> device = open_device(options.device);
  std::array<std::unique_ptr<pos::Plotter>, 2> plotters{make_plotter(*device, options.k, options.mode),
                                                       make_plotter(*device, options.k, options.mode)};
  const std::vector<pos::Seed> seeds =
      options.seed ? std::vector<pos::Seed>{*options.seed}
                   : sector_seeds(*device, *options.sector_id, options.piece_offset, options.records);

  pos::PlotFileWriter writer(file.stream(), {options.k, options.mode, options.records}, file.temporary_path());
  const auto start = std::chrono::steady_clock::now();
  std::array<std::optional<sprig::Sequence>, 2> in_flight;
  auto start_record = [&](std::uint32_t r) {
    in_flight[r % 2].emplace(device->sequence());
    plotters[r % 2]->record(*in_flight[r % 2], seeds[r]);
    in_flight[r % 2]->submit();
  };
  start_record(0);
  for (std::uint32_t r = 0; r < options.records; ++r) {
    if (r + 1 < options.records) start_record(r + 1);
    in_flight[r % 2]->wait();
    writer.write(seeds[r], plotters[r % 2]->result());
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "\rplotted %u / %u records, %.2f records/s", r + 1, options.records, (r + 1) / elapsed);
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
