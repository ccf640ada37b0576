#include "mpi_launch.hpp"

#include <cstdlib>
#include <initializer_list>

namespace sprig_plot {

bool launched_as_rank() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(variable)) return true;
  return false;
}

}  // namespace sprig_plot
