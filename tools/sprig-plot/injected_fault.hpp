// A failure on demand, for the tests of what a failing device or rank does to a plot:
// with SPRIG_PLOT_FAIL_AFTER=N in its environment, a sprig-plot process plots N records and
// then every worker that starts another fails, as workers on a lost device would.
#pragma once

namespace sprig_plot {

// Call before plotting a record; throws std::runtime_error once the process is past N.
void fail_if_injected();

}  // namespace sprig_plot
