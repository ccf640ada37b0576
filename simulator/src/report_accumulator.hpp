// The device's report, built up launch by launch: diagnostics merged per (problem,
// kernel, source line), statistics per kernel, and the analyses' findings merged per
// source site (the same line of the same kernel adds up over launches).
#pragma once

#include <map>
#include <string>
#include <tuple>

#include "analysis/launch_analysis.hpp"
#include "diagnostics.hpp"
#include "program.hpp"
#include "scheduler.hpp"
#include "sprig/simulator/device.hpp"
#include "sprig/simulator/report.hpp"

namespace sprig::sim {

struct LaunchSummary {
  LaunchTotals totals;
  std::uint64_t invocations = 0;
  std::uint32_t subgroup_size = 0;
  double host_ms = 0;
};

class ReportAccumulator {
 public:
  explicit ReportAccumulator(const AnalysisOptions& options = {});

  void add(const Program& program, const DiagnosticLog& log, const LaunchSummary& summary,
           const analysis::LaunchFindings& findings);
  const Report& report() const { return report_; }
  void clear() { *this = ReportAccumulator(options_); }

 private:
  // Sites are told apart by kernel (name and hash) and source position.
  using SiteKey = std::tuple<std::string, std::uint64_t, std::string, std::uint32_t, std::uint32_t, std::uint32_t>;
  using RaceKey = std::tuple<std::string, std::string, RaceKind, std::string, std::uint32_t, std::uint32_t,
                             std::string, std::uint32_t, std::uint32_t>;
  using DiagnosticKey = std::tuple<Problem, std::string, std::string, std::uint32_t, std::uint32_t>;

  void add_accesses(const Program& program, const analysis::LaunchFindings& f);
  void add_branches(const Program& program, const analysis::LaunchFindings& f, KernelStats& k);
  void add_lines(const Program& program, const analysis::LaunchFindings& f);
  void add_races(const Program& program, const analysis::LaunchFindings& f);

  AnalysisOptions options_;
  Report report_;
  std::map<DiagnosticKey, std::size_t> diagnostics_;  // into errors or warnings
  std::map<std::pair<std::string, std::uint64_t>, std::size_t> kernels_;
  std::map<std::tuple<SiteKey, MemorySpace, std::uint32_t, AccessKind>, std::size_t> accesses_;
  std::map<SiteKey, std::size_t> branches_;
  std::map<SiteKey, std::size_t> lines_;
  std::map<RaceKey, std::size_t> races_;
};

}  // namespace sprig::sim
