// The simulator's report in the three forms users read it: text for the terminal, JSON
// for tools and tests (schema in docs/simulator.md), and one self-contained HTML page
// with the kernel's source coloured by coalescing and idleness. And the test mode:
// require_clean() fails when a report has a race, an out-of-bounds access or barrier
// divergence (sim::Options::strict does the same after every launch).
#pragma once

#include <string>

#include "sprig/dsl/error.hpp"
#include "sprig/simulator/report.hpp"

namespace sprig::sim {

std::string to_text(const Report& report);  // what operator<< prints
std::string to_json(const Report& report);
std::string to_html(const Report& report, const std::string& title = "sprig simulator report");

// Writes the report in the format the extension names: .json, .html/.htm or .txt. Throws
// DeviceError naming the path when the extension is unknown or the file cannot be written.
void save_report(const Report& report, const std::string& path);

// A report with a race, an out-of-bounds access or barrier divergence; what() lists them.
class AnalysisFailure : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

// Throws AnalysisFailure if `report` has any race, out-of-bounds access or barrier divergence.
void require_clean(const Report& report);

}  // namespace sprig::sim
