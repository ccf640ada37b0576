#include "report_accumulator.hpp"

namespace sprig::sim {

void ReportAccumulator::add(const ir::Kernel& kernel, const DiagnosticLog& log, const LaunchSummary& summary) {
  ++report_.launches;
  report_.lane_operations += summary.totals.lane_operations;
  auto [it, added] = kernels_.try_emplace({kernel.name, kernel.hash}, report_.kernels.size());
  if (added) report_.kernels.push_back(KernelStats{kernel.name, kernel.hash});
  KernelStats& k = report_.kernels[it->second];
  ++k.launches;
  k.invocations += summary.invocations;
  k.lane_operations += summary.totals.lane_operations;
  k.issued += summary.totals.issued;
  k.subgroup_size = summary.subgroup_size;
  k.host_ms += summary.host_ms;
  for (const Diagnostic& d : log.entries()) {
    std::vector<Diagnostic>& list = d.is_error ? report_.errors : report_.warnings;
    DiagnosticKey key{d.problem, d.kernel, d.loc.file, d.loc.line, d.loc.column};
    auto [at, fresh] = diagnostics_.try_emplace(key, list.size());
    if (fresh) list.push_back(d);
    else list[at->second].occurrences += d.occurrences;
  }
}

}  // namespace sprig::sim
