#include "exit_status.hpp"

#include <exception>

#include <sprig/runtime/memory_budget.hpp>
#include <sprig/stdlib/pos/plot_file_format.hpp>

#include "command_line.hpp"
#include "resumable_file.hpp"

namespace sprig_plot {

std::pair<int, std::string> exit_status_of_current_exception() {
  try {
    throw;
  } catch (const UsageError& e) {
    return {2, e.what()};
  } catch (const sprig::pos::PlotFileError& e) {
    return {2, e.what()};
  } catch (const sprig::MemoryBudgetExceeded& e) {  // the --memory-budget given is too small
    return {2, e.what()};
  } catch (const ResumableFileError& e) {  // the plot file could not be created, written or renamed
    return {2, e.what()};
  } catch (const std::exception& e) {
    return {3, e.what()};
  } catch (...) {
    return {3, "an unknown error"};
  }
}

}  // namespace sprig_plot
