#include "diagnostics.hpp"

namespace sprig::sim {

bool DiagnosticLog::stop_at_limit(const SourceLoc& loc, const std::array<std::uint32_t, 3>& invocation) {
  stopped_ = true;
  entries_.push_back(Diagnostic{Problem::ErrorLimit, true, kernel_.name, loc,
                                "the launch was stopped after " + std::to_string(error_limit_) +
                                    " errors (Options::error_limit); later errors are not reported",
                                invocation, 1});
  return false;
}

}  // namespace sprig::sim
