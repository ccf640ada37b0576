// Printing the report: kernels with their statistics, then errors and warnings with the
// user's line, the kernel, an example invocation and how often it happened.
#include <algorithm>
#include <iomanip>
#include <ostream>

#include <sstream>

#include "sprig/simulator/report.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

const char* problem_name(Problem p) {
  switch (p) {
    case Problem::OutOfBounds: return "out of bounds";
    case Problem::BarrierDivergence: return "barrier divergence";
    case Problem::Deadlock: return "deadlock";
    case Problem::InactiveLane: return "inactive lane read";
    case Problem::RunawayLoop: return "runaway loop";
    case Problem::ErrorLimit: return "error limit";
    case Problem::DivisionByZero: return "division by zero";
    case Problem::UninitializedSharedRead: return "uninitialized shared read";
  }
  return "problem";
}

const char* space_name(MemorySpace s) { return s == MemorySpace::Shared ? "shared" : "buffer"; }

const char* access_name(AccessType a) {
  switch (a) {
    case AccessType::Read: return "read";
    case AccessType::Write: return "write";
    case AccessType::Atomic: return "atomic";
  }
  return "access";
}

const char* race_name(RaceKind k) {
  switch (k) {
    case RaceKind::ReadAfterWrite: return "RAW";
    case RaceKind::WriteAfterRead: return "WAR";
    case RaceKind::WriteAfterWrite: return "WAW";
  }
  return "race";
}

double AccessSite::efficiency() const {
  if (space == MemorySpace::Shared) return wavefronts ? double(ideal_wavefronts) / double(wavefronts) : 1.0;
  return sectors ? double(ideal_sectors) / double(sectors) : 1.0;
}

IdleLaneSteps& IdleLaneSteps::operator+=(const IdleLaneSteps& o) {
  branch += o.branch;
  loop += o.loop;
  returned += o.returned;
  grid_tail += o.grid_tail;
  partial_subgroup += o.partial_subgroup;
  return *this;
}

double LineStats::simt_efficiency() const {
  return issued == 0 || subgroup_size == 0 ? 1.0 : double(lane_operations) / (double(issued) * subgroup_size);
}

double KernelStats::simt_efficiency() const {
  return issued == 0 || subgroup_size == 0 ? 1.0 : double(lane_operations) / (double(issued) * subgroup_size);
}

const Diagnostic* Report::find(Problem problem) const {
  for (const auto* list : {&errors, &warnings})
    for (const Diagnostic& d : *list)
      if (d.problem == problem) return &d;
  return nullptr;
}

namespace {

void print_diagnostics(std::ostream& out, const char* title, const std::vector<Diagnostic>& list) {
  if (list.empty()) return;
  out << title << " (" << list.size() << "):\n";
  for (const Diagnostic& d : list) {
    out << "  " << (d.loc.known() ? d.loc.str() : std::string("<unknown line>")) << ": " << d.message << "\n"
        << "      [" << problem_name(d.problem) << "; kernel '" << d.kernel << "'; first at invocation ("
        << d.invocation[0] << ", " << d.invocation[1] << ", " << d.invocation[2] << ")";
    if (d.occurrences > 1) out << "; " << d.occurrences << " times";
    out << "]\n";
  }
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const Report& r) {
  out << "sprig simulator: " << r.launches << " launch" << (r.launches == 1 ? "" : "es") << ", " << r.lane_operations
      << " lane-operations, " << r.errors.size() << " error" << (r.errors.size() == 1 ? "" : "s") << ", "
      << r.warnings.size() << " warning" << (r.warnings.size() == 1 ? "" : "s") << "\n";
  if (!r.kernels.empty()) {
    std::size_t width = 6;
    for (const KernelStats& k : r.kernels) width = std::max(width, k.name.size());
    out << "kernels:\n";
    const std::ios_base::fmtflags flags = out.flags();
    const std::streamsize precision = out.precision();
    for (const KernelStats& k : r.kernels) {
      out << "  " << std::left << std::setw(int(width)) << k.name << std::right << std::setw(6) << k.launches
          << " launches " << std::setw(11) << k.invocations << " invocations " << std::setw(13) << k.lane_operations
          << " lane-ops  SIMT efficiency " << std::fixed << std::setprecision(1) << std::setw(5)
          << 100.0 * k.simt_efficiency() << "%  " << std::setprecision(2) << std::setw(9) << k.host_ms << " ms\n";
    }
    out.flags(flags);
    out.precision(precision);
  }
  print_diagnostics(out, "errors", r.errors);
  print_diagnostics(out, "warnings", r.warnings);
  return out;
}

std::string to_text(const Report& report) {
  std::ostringstream out;
  out << report;
  return out.str();
}

}  // namespace sprig::sim
