// sprig-plot's exit status for an exception (main.cpp lists the statuses): 2 for the user's
// mistakes, 3 for any other failure.
#pragma once

#include <string>
#include <utility>

namespace sprig_plot {

// Call inside a catch block: the exit status and message of the exception being handled.
std::pair<int, std::string> exit_status_of_current_exception();

}  // namespace sprig_plot
