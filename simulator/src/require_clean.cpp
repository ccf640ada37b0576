// The test mode's check: a report with a race, an out-of-bounds access or barrier
// divergence fails, and the failure lists them.
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

void require_clean(const Report& report) {
  Report problems;
  problems.races = report.races;
  for (const Diagnostic& d : report.errors)
    if (d.problem == Problem::OutOfBounds || d.problem == Problem::BarrierDivergence) problems.errors.push_back(d);
  if (problems.races.empty() && problems.errors.empty()) return;
  throw AnalysisFailure("the simulator found " + std::to_string(problems.races.size()) + " race(s) and " +
                        std::to_string(problems.errors.size()) + " out-of-bounds or barrier-divergence error(s):\n" +
                        to_text(problems));
}

}  // namespace sprig::sim
