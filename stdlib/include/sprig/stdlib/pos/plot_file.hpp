// The plot file `sprig-plot` writes and verifies: its format and checks
// (plot_file_format.hpp), PlotFileWriter and PlotFileReader. docs/pos.md, "The plot file".
#pragma once

#include "sprig/stdlib/pos/plot_file_format.hpp"
#include "sprig/stdlib/pos/plot_file_reader.hpp"
#include "sprig/stdlib/pos/plot_file_writer.hpp"
