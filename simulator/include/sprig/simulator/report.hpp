// What the simulator found while running kernels, attributed to the user's source lines:
// errors and warnings (with an example invocation), data races, the coalescing of every
// memory access site, shared-memory bank conflicts, branch and loop idleness, and per-line
// and per-kernel SIMT efficiency. Every figure is exact for the simulated schedule; the
// definitions are in docs/simulator.md. `std::cout << device.report()` prints the text
// report; report_formats.hpp writes JSON and HTML.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "sprig/dsl/source_loc.hpp"

namespace sprig::sim {

enum class Problem : std::uint8_t {
  OutOfBounds,              // a buffer, shared or local access outside its variable
  BarrierDivergence,        // a barrier reached by only some of the invocations that must reach it
  Deadlock,                 // workgroups or lanes waiting on each other forever
  InactiveLane,             // a subgroup operation reading a lane that is inactive or out of range
  RunawayLoop,              // a loop ran past the watchdog's limit
  ErrorLimit,               // the launch stopped after Options::error_limit errors
  DivisionByZero,           // an integer / or % by zero (the result is defined, but surely a bug)
  UninitializedSharedRead,  // shared memory read before anything in the workgroup wrote it
  StaleTransientRead,       // a transient buffer read bytes it had not written (Sequence::transient)
};

const char* problem_name(Problem p);

struct Diagnostic {
  Problem problem = Problem::OutOfBounds;
  bool is_error = true;                       // false: a warning
  std::string kernel;
  SourceLoc loc;                              // the user's line
  std::string message;                        // of the first occurrence
  std::array<std::uint32_t, 3> invocation{};  // global invocation id of the first occurrence
  std::uint64_t occurrences = 1;              // lanes that hit it at this line, all launches
};

enum class MemorySpace : std::uint8_t { Buffer, Shared };
// What a memory instruction does: the report's access sites and the observer's events.
enum class AccessKind : std::uint8_t { Read, Write, Atomic };

const char* space_name(MemorySpace s);
const char* access_name(AccessKind a);  // "read", "write", "atomic"

// One memory instruction of a kernel (a load, store or atomic on a buffer or shared
// variable), its figures summed over every subgroup-level execution in every launch.
// A subgroup's execution is split into requests of AnalysisOptions::request_lanes lanes.
struct AccessSite {
  std::string kernel;
  SourceLoc loc;
  std::string memory;  // the buffer parameter's or shared variable's name
  MemorySpace space = MemorySpace::Buffer;
  AccessKind kind = AccessKind::Read;
  std::uint32_t bytes_per_lane = 0;
  std::uint64_t executions = 0;    // subgroup-level executions with at least one lane accessing
  std::uint64_t requests = 0;      // requests with at least one lane accessing
  std::uint64_t active_lanes = 0;  // lane accesses
  std::uint64_t bytes = 0;         // bytes requested: active lanes times bytes per lane
  // Buffers: distinct sectors and lines each request touches, and the fewest sectors that
  // could hold the distinct bytes it requests (so a broadcast is ideal).
  std::uint64_t sectors = 0;
  std::uint64_t lines = 0;
  std::uint64_t ideal_sectors = 0;
  // Shared memory: wavefronts each request needs (the most distinct words any one bank
  // serves) and the fewest possible (distinct words / banks, rounded up).
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;

  // ideal / actual sectors (buffers) or wavefronts (shared memory); 1 when nothing ran.
  double efficiency() const;
  double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
  double wavefronts_per_request() const { return requests ? double(wavefronts) / double(requests) : 0.0; }
};

// Lane-steps (one lane for one executed IR operation) that lanes of a running subgroup
// spent idle, by reason.
struct IdleLaneSteps {
  std::uint64_t branch = 0;            // masked out by an if_ (or else) they did not take
  std::uint64_t loop = 0;              // done with a loop (or skipping an iteration's rest) while others iterate
  std::uint64_t returned = 0;          // returned from the kernel early
  std::uint64_t grid_tail = 0;         // beyond the launched grid: exist only to fill the last workgroup
  std::uint64_t partial_subgroup = 0;  // lanes past the end of a workgroup whose size is not a multiple of the width

  std::uint64_t total() const { return branch + loop + returned + grid_tail + partial_subgroup; }
  IdleLaneSteps& operator+=(const IdleLaneSteps& o);
};

// An if_ or a loop of a kernel. An execution is one subgroup-level branch decision: a
// subgroup reaching the if_, or a subgroup running the loop once from entry to exit (its
// exit tests together decide each lane's trip count). It diverges when its lanes split: some
// take the if_ and others not; some stop iterating while others go on.
struct BranchSite {
  enum class Kind : std::uint8_t { If, Loop };
  std::string kernel;
  SourceLoc loc;
  Kind kind = Kind::If;
  std::uint64_t executions = 0;
  std::uint64_t divergent = 0;
  std::uint64_t iterations = 0;  // Loop: iterations started, over all executions; If: 0
  // Lane-steps idle because of this construct: masked by this branch (If), or done with
  // this loop while other lanes iterate (Loop: trip-count imbalance).
  std::uint64_t idle_lane_steps = 0;
  // Lane-steps of lanes beyond the launched grid that this construct masked (a tail guard
  // like if_(i < n) has all its idleness here).
  std::uint64_t grid_tail_lane_steps = 0;

  double divergent_share() const { return executions ? double(divergent) / double(executions) : 0.0; }
};

// One source line of a kernel: every IR operation traced from it.
struct LineStats {
  std::string kernel;
  SourceLoc loc;  // column 0
  std::uint64_t issued = 0;           // operations issued, once per subgroup
  std::uint64_t lane_operations = 0;  // operations times the lanes active for them
  std::uint32_t subgroup_size = 0;

  // Active lanes per issued operation, as a fraction of the subgroup's width.
  double simt_efficiency() const;
};

enum class RaceKind : std::uint8_t { ReadAfterWrite, WriteAfterRead, WriteAfterWrite };
const char* race_name(RaceKind k);  // "RAW", "WAR", "WAW"

// Two accesses to the same byte by different invocations in one dispatch, at least one a
// write, not both atomic, and not ordered by a barrier or by release/acquire atomics.
// De-duplicated by (kernel, memory, kind, first line, second line).
struct Race {
  std::string kernel;
  std::string memory;  // the buffer parameter's or shared variable's name
  MemorySpace space = MemorySpace::Buffer;
  RaceKind kind = RaceKind::WriteAfterWrite;
  SourceLoc first;   // the access that came first in the simulated schedule
  SourceLoc second;  // the one that came second
  std::array<std::uint32_t, 3> first_invocation{};   // global invocation ids of an example pair
  std::array<std::uint32_t, 3> second_invocation{};
  std::uint64_t byte_offset = 0;  // of the example, from the start of the buffer or variable
  std::uint64_t count = 0;        // racing access pairs found (per 4-byte word), all launches
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
  IdleLaneSteps idle;                 // when the idleness analysis ran
  std::uint64_t branch_executions = 0;            // BranchSite::executions, all its sites
  std::uint64_t divergent_branch_executions = 0;  // BranchSite::divergent, all its sites

  // Active lanes per issued operation, as a fraction of the subgroup's width: 1.0 when
  // no lane ever idles (divergence, early exits, partial subgroups lower it).
  double simt_efficiency() const;
  // The share of its subgroup-level branch executions whose lanes split.
  double divergent_share() const {
    return branch_executions ? double(divergent_branch_executions) / double(branch_executions) : 0.0;
  }
};

struct Report {
  std::vector<Diagnostic> errors;    // in order of first occurrence
  std::vector<Diagnostic> warnings;
  std::vector<Race> races;           // in order of first occurrence
  std::vector<KernelStats> kernels;  // in order of first launch
  std::vector<AccessSite> accesses;  // in order of first execution
  std::vector<BranchSite> branches;  // in order of first execution
  std::vector<LineStats> lines;      // by kernel, then file and line
  std::uint64_t launches = 0;
  std::uint64_t lane_operations = 0;
  // The analysis parameters the figures were measured with.
  std::uint32_t sector_bytes = 32;
  std::uint32_t line_bytes = 128;
  std::uint32_t request_lanes = 0;  // 0: one request per subgroup execution
  std::uint32_t banks = 32;
  std::uint32_t bank_bytes = 4;

  // No error and no race.
  bool clean() const { return errors.empty() && races.empty(); }
  // The first error or warning about `problem` (a pointer into this report), or null.
  const Diagnostic* find(Problem problem) const;
};

// The text report: summary, kernels, then races, errors and warnings, then the worst
// access sites, branches and lines first, each with file:line and the source line's text.
std::ostream& operator<<(std::ostream& out, const Report& report);

}  // namespace sprig::sim
