// What the simulator found while running kernels: errors and warnings attributed to the
// user's source lines (with an example invocation), and per-kernel execution statistics.
// `std::cout << device.report()` prints it.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sprig/dsl/source_loc.hpp"

namespace sprig::sim {

enum class Problem : std::uint8_t {
  OutOfBounds,        // a buffer, shared or local access outside its variable
  BarrierDivergence,  // a barrier reached by only some of the invocations that must reach it
  Deadlock,           // workgroups or lanes waiting on each other forever
  InactiveLane,       // a subgroup operation reading a lane that is inactive or out of range
  RunawayLoop,        // a loop ran past the watchdog's limit
  ErrorLimit,         // the launch stopped after Options::error_limit errors
};

const char* problem_name(Problem p);

struct Diagnostic {
  Problem problem = Problem::OutOfBounds;
  bool is_error = true;                       // false: a warning (e.g. an undefined value read)
  std::string kernel;
  SourceLoc loc;                              // the user's line
  std::string message;                        // of the first occurrence
  std::array<std::uint32_t, 3> invocation{};  // global invocation id of the first occurrence
  std::uint64_t occurrences = 1;              // lanes that hit it at this line, all launches
};

struct KernelStats {
  std::string name;
  std::uint64_t hash = 0;
  std::uint64_t launches = 0;
  std::uint64_t invocations = 0;
  std::uint64_t lane_operations = 0;  // IR operations times the lanes active for them
  std::uint64_t issued = 0;           // IR operations issued per subgroup
  std::uint32_t subgroup_size = 0;    // of the last launch
  double host_ms = 0;                 // interpretation time

  // Active lanes per issued operation, as a fraction of the subgroup's width: 1.0 when
  // no lane ever idles (divergence, early exits, partial subgroups lower it).
  double simt_efficiency() const;
};

struct Report {
  std::vector<Diagnostic> errors;    // in order of first occurrence
  std::vector<Diagnostic> warnings;
  std::vector<KernelStats> kernels;  // in order of first launch
  std::uint64_t launches = 0;
  std::uint64_t lane_operations = 0;

  bool clean() const { return errors.empty(); }
  // The first error or warning about `problem` (a pointer into this report), or null.
  const Diagnostic* find(Problem problem) const;
};

std::ostream& operator<<(std::ostream& out, const Report& report);

}  // namespace sprig::sim
