// run_as_rank for a sprig-plot built without MPI (SPRIG_WITH_MPI off): one rank runs the
// command line as usual; several are refused, once, by rank 0.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mpi_launch.hpp"

namespace sprig_plot {

namespace {

int environment_number(const char* name, int otherwise) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : otherwise;
}

}  // namespace

int run_as_rank(int argc, char** argv) {
  const int size = environment_number("OMPI_COMM_WORLD_SIZE", environment_number("PMI_SIZE", 1));
  if (size <= 1) return run_command_line(argc, argv);
  const int rank = environment_number("OMPI_COMM_WORLD_RANK", environment_number("PMI_RANK", 0));
  if (rank == 0) {
    std::fprintf(stderr,
                 "sprig-plot: error: this sprig-plot was built without MPI (SPRIG_WITH_MPI=OFF), so it cannot share "
                 "work among the %d ranks it was started as; build it with Open MPI (libopenmpi-dev) or run it "
                 "without mpirun\n",
                 size);
  }
  return 2;
}

}  // namespace sprig_plot
