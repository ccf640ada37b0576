// sprig-plot's commands (docs/pos.md, "sprig-plot"): each takes its options parsed and
// checked (command_line.hpp) and returns the program's exit status.
#pragma once

#include "command_line.hpp"

namespace sprig_plot {

// Plots records to a file that appears complete or not at all.
int run_plot(const PlotOptions& options);
// Verifies every proof of a plot file on the device: 0 if all are valid, 1 if not.
int run_verify(const VerifyOptions& options);
// Times records (tables, proofs and record encoding) in one sequence.
int run_bench(const BenchOptions& options);

}  // namespace sprig_plot
