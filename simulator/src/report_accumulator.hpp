// The device's report, built up launch by launch: diagnostics merged per (problem,
// kernel, source line), statistics per kernel.
#pragma once

#include <map>
#include <string>
#include <tuple>

#include "diagnostics.hpp"
#include "scheduler.hpp"
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
  void add(const ir::Kernel& kernel, const DiagnosticLog& log, const LaunchSummary& summary);
  const Report& report() const { return report_; }
  void clear() { *this = ReportAccumulator(); }

 private:
  using DiagnosticKey = std::tuple<Problem, std::string, std::string, std::uint32_t, std::uint32_t>;
  Report report_;
  std::map<DiagnosticKey, std::size_t> diagnostics_;  // into errors or warnings
  std::map<std::pair<std::string, std::uint64_t>, std::size_t> kernels_;
};

}  // namespace sprig::sim
