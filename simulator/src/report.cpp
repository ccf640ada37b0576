// The report's small pieces: names of problems, spaces, accesses and races, and the
// derived figures (efficiencies). Printing is in report_text.cpp.
#include <algorithm>
#include <iomanip>
#include <ostream>

#include "sprig/simulator/report.hpp"

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
    case Problem::StaleTransientRead: return "stale transient read";
  }
  return "problem";
}

const char* space_name(MemorySpace s) { return s == MemorySpace::Shared ? "shared" : "buffer"; }

const char* access_name(AccessKind a) {
  switch (a) {
    case AccessKind::Read: return "read";
    case AccessKind::Write: return "write";
    case AccessKind::Atomic: return "atomic";
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

}  // namespace sprig::sim
