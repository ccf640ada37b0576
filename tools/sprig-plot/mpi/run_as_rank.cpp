// run_as_rank for a sprig-plot built with MPI: one rank runs the command line as one process
// does; with several, plot and verify share their work (mpi_commands.hpp) and bench, which
// times one process's devices, is refused.
#include <sched.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>
#include <type_traits>
#include <variant>

#include "../mpi_launch.hpp"
#include "mpi_commands.hpp"

namespace sprig_plot {

namespace {

// mpirun binds each rank to one core by default (Open MPI: when there are at most two
// ranks); a rank's plotting threads would then all share it. Rank 0 says so, for all.
void warn_if_bound_to_one_core(const MpiWorld& world) {
  cpu_set_t cpus;
  if (world.rank() != 0 || sched_getaffinity(0, sizeof cpus, &cpus) != 0) return;
  if (CPU_COUNT(&cpus) == 1 && std::thread::hardware_concurrency() > 1) {
    std::fprintf(stderr,
                 "sprig-plot: warning: mpirun bound each rank to one core, which a rank's plotting threads share: run "
                 "mpirun with --bind-to none, or give each rank several cores (--map-by slot:PE=N)\n");
  }
}

bool asks_for_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

int run_command(MpiWorld& world, int argc, char** argv) {
  const std::optional<Command> command = parse_command_line(argc, argv);
  if (!command) return 0;  // --help, printed by rank 0
  return std::visit(
      [&world](const auto& options) {
        using Options = std::decay_t<decltype(options)>;
        if constexpr (std::is_same_v<Options, PlotOptions>) return run_plot_rank(world, options);
        if constexpr (std::is_same_v<Options, VerifyOptions>) return run_verify_rank(world, options);
        if constexpr (std::is_same_v<Options, BenchOptions>) {
          throw UsageError("bench times the devices of one process; run it without mpirun (plot and verify share "
                           "their work among mpirun's ranks)");
          return 2;
        }
      },
      *command);
}

}  // namespace

int run_as_rank(int argc, char** argv) {
  std::optional<MpiWorld> world;
  try {
    world.emplace(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sprig-plot: error: %s\n", e.what());
    return 3;
  }
  if (world->size() == 1) return run_command_line(argc, argv);
  if (world->rank() != 0 && asks_for_help(argc, argv)) return 0;
  warn_if_bound_to_one_core(*world);
  try {
    return run_command(*world, argc, argv);
  } catch (...) {
    const auto [status, message] = exit_status_of_current_exception();
    if (!world->agreed()) return world->agree(status, message, /*work=*/"");
    if (world->rank() == 0) {  // the other ranks were stopped on the way out
      std::fprintf(stderr, "sprig-plot: error: %s\n", message.c_str());
      return status;
    }
    // Rank 0 may be waiting for this rank: only ending the job ends the wait.
    std::fprintf(stderr, "sprig-plot: error: %s: %s\n", world->name(world->rank()).c_str(), message.c_str());
    MPI_Abort(MPI_COMM_WORLD, status);
    return status;
  }
}

}  // namespace sprig_plot
