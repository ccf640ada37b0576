// sprig-plot as one rank of an mpirun (or srun) job. Built with MPI (SPRIG_WITH_MPI), plot
// and verify share their work among the ranks (mpi/); built without, a job of several ranks
// is refused rather than having every rank write the same file.
#pragma once

namespace sprig_plot {

// Whether a process manager started this process as a rank: Open MPI's mpirun, or a PMI or
// PMIx launcher such as Slurm's srun.
bool launched_as_rank();

// Runs the command line as this process's rank; returns the exit status.
int run_as_rank(int argc, char** argv);

// The command line in one process (main.cpp): what a run outside mpirun does.
int run_command_line(int argc, char** argv);

}  // namespace sprig_plot
