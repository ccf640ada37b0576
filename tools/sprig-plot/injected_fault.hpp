// A failure on demand, for the tests of what a failing device or rank does to a plot:
// with SPRIG_PLOT_FAIL_AFTER=N in its environment, a sprig-plot process plots N records and
// then every worker that starts another fails, as workers on a lost device would;
// SPRIG_PLOT_FAIL_AFTER=N@D counts and fails only the workers of device D (its index in
// --devices), so the other devices go on.
#pragma once

#include <cstddef>

namespace sprig_plot {

// Call before plotting a record on device `device`; throws std::runtime_error once the
// process (or that device) is past N.
void fail_if_injected(std::size_t device);

}  // namespace sprig_plot
