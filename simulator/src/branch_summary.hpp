// How a branch site's executions read in the text and HTML reports, so that both say the
// same: "4 executions, 100.0% divergent", or for a loop "4 executions (36 iterations),
// 50.0% divergent" (a loop counts once per run, not once per iteration).
#pragma once

#include <cstdio>
#include <string>

#include "sprig/simulator/report.hpp"

namespace sprig::sim {

inline std::string branch_executions(const BranchSite& b) {
  char text[128];
  const auto executions = (unsigned long long)b.executions;
  if (b.kind == BranchSite::Kind::Loop)
    std::snprintf(text, sizeof text, "%llu execution%s (%llu iterations), %.1f%% divergent", executions,
                  executions == 1 ? "" : "s", (unsigned long long)b.iterations, 100.0 * b.divergent_share());
  else
    std::snprintf(text, sizeof text, "%llu execution%s, %.1f%% divergent", executions, executions == 1 ? "" : "s",
                  100.0 * b.divergent_share());
  return text;
}

}  // namespace sprig::sim
