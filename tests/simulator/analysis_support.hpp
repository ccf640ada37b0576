// Helpers for the analysis tests: a device with the analyses on and a fixed subgroup
// width, and lookups of report entries by the test file's line.
#pragma once

#include <cstdint>
#include <string>

#include "sim_test_support.hpp"

namespace sprig::simtest {

// A fresh device (its report holds only the test's kernels), never in strict mode.
inline sim::Options analysed(std::uint32_t subgroup_size = 32) {
  sim::Options o;
  o.subgroup_size = subgroup_size;
  o.strict = false;
  return o;
}

template <class T>
const T* at_line(const std::vector<T>& entries, std::uint32_t line) {
  for (const T& e : entries)
    if (e.loc.line == line) return &e;
  return nullptr;
}

inline const sim::AccessSite* access_at(const sim::Report& r, std::uint32_t line) { return at_line(r.accesses, line); }
inline const sim::BranchSite* branch_at(const sim::Report& r, std::uint32_t line) { return at_line(r.branches, line); }
inline const sim::LineStats* line_at(const sim::Report& r, std::uint32_t line) { return at_line(r.lines, line); }

// Idle lane-steps of the lines [first, last]: issued operations times the width, less
// the lanes that were active for them.
inline std::uint64_t idle_on_lines(const sim::Report& r, std::uint32_t first, std::uint32_t last) {
  std::uint64_t idle = 0;
  for (const sim::LineStats& l : r.lines)
    if (l.loc.line >= first && l.loc.line <= last) idle += l.issued * l.subgroup_size - l.lane_operations;
  return idle;
}

}  // namespace sprig::simtest
