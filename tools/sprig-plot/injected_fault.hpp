// Failures and slowness on demand, for the tests of what a failing device or rank, or a kill
// in the middle of a plot, does to it, on devices of any speed:
// * SPRIG_PLOT_FAIL_AFTER=N: the process plots N records, then every worker that starts
//   another fails, as workers on a lost device would; N@D counts and fails only the workers
//   of device D (its index in --devices), so the other devices go on.
// * SPRIG_PLOT_RECORD_DELAY_MS=T: every worker waits T ms before each record, so that a
//   plot on a fast GPU lasts long enough to be killed in the middle.
#pragma once

#include <cstddef>

namespace sprig_plot {

// Call before plotting a record on device `device`: waits, or throws std::runtime_error once
// the process (or that device) is past N.
void inject_test_faults(std::size_t device);

}  // namespace sprig_plot
