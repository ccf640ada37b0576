// sprig-plot: proof-of-space plotting from the command line (Abundance's or Subspace's
// rules, docs/pos.md).
//
//   sprig-plot plot --seed HEX64 --k 20 [--mode subspace] --output record.plot
//   sprig-plot plot --sector-id HEX64 --piece-offset 0 --records 16 --output sector.plot
//   sprig-plot verify --input sector.plot
//   sprig-plot bench --k 20 --records 20
//
// Under mpirun, plot and verify share their work among the ranks (mpi_launch.hpp).
//
// Exit status: 0 done, 1 invalid proofs or malformed records found, 2 the user's mistake (a
// bad option, an unreadable, unwritable or damaged file, a device or a --memory-budget too
// small for K), 3 any other failure.
#include <cstdio>
#include <type_traits>
#include <variant>

#include "command_line.hpp"
#include "commands.hpp"
#include "exit_status.hpp"
#include "mpi_launch.hpp"

namespace sprig_plot {

int run_command_line(int argc, char** argv) {
  try {
    const std::optional<Command> command = parse_command_line(argc, argv);
    if (!command) return 0;  // --help
    return std::visit(
        [](const auto& options) {
          using Options = std::decay_t<decltype(options)>;
          if constexpr (std::is_same_v<Options, PlotOptions>) return run_plot(options);
          if constexpr (std::is_same_v<Options, VerifyOptions>) return run_verify(options);
          if constexpr (std::is_same_v<Options, BenchOptions>) return run_bench(options);
        },
        *command);
  } catch (...) {
    const auto [status, message] = exit_status_of_current_exception();
    std::fprintf(stderr, "sprig-plot: error: %s\n", message.c_str());
    return status;
  }
}

}  // namespace sprig_plot

int main(int argc, char** argv) {
  if (sprig_plot::launched_as_rank()) return sprig_plot::run_as_rank(argc, argv);
  return sprig_plot::run_command_line(argc, argv);
}
