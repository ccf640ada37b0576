// sprig-plot's commands as ranks of an mpirun job of two or more ranks. Each rank gets the
// same command line; every rank reaches world.agree() exactly once, after its set-up, so a
// mistake on any rank is one error printed by rank 0 and every rank exits with its status.
#pragma once

#include "../command_line.hpp"
#include "../exit_status.hpp"
#include "mpi_world.hpp"

namespace sprig_plot {

// Rank 0 writes the file and deals records; every rank plots (plot_ranks.cpp).
int run_plot_rank(MpiWorld& world, const PlotOptions& options);
// Rank 0 reads the file and deals records; the other ranks verify them (verify_ranks.cpp).
int run_verify_rank(MpiWorld& world, const VerifyOptions& options);

}  // namespace sprig_plot
