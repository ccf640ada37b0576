// A subgroup in flight: its registers, local variables, program counter, active mask and
// control stack. It runs until the next barrier, spin-wait yield or the kernel's end and
// can be resumed later, which is how subgroups of a workgroup (and workgroups waiting on
// each other) interleave.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "analysis/subgroup_tracking.hpp"
#include "lane_mask.hpp"
#include "program.hpp"
#include "sprig/simulator/observer.hpp"

namespace sprig::sim {

struct LaunchState;
struct WorkgroupState;
namespace analysis {
class LaunchAnalysis;
}

enum class RunState : std::uint8_t {
  Running,
  AtBarrier,  // waiting at a workgroup barrier (waiting_pc)
  Spinning,   // yielded in a loop that waits for other invocations to write memory
  Done,
  Aborted,    // the launch is being stopped
};

// One entry of the SIMT stack.
struct ControlFrame {
  Mask saved = 0;    // If: lanes that reached it; Loop: lanes still iterating; Call: callers
  Mask other = 0;    // If: lanes for the else branch; Loop: lanes that left normally
  Mask entered = 0;  // If, Loop, Call: the lanes active when it began (for the idleness analysis)
  std::uint32_t resume_pc = 0;     // Call: where the caller continues
  std::uint32_t caller_frame = 0;  // Call: the caller's frame base
  std::uint32_t result_slot = 0;   // Call: the call node's result slot
  std::uint32_t site_pc = 0;       // the instruction that pushed it
  bool split = false;              // Loop: some lanes stopped iterating while others went on (counted once)
};

struct Context {
  // ---- fixed for a launch
  const Program* program = nullptr;
  LaunchState* launch = nullptr;
  Observer* observer = nullptr;  // null unless a user's observer is attached
  analysis::LaunchAnalysis* analysis = nullptr;  // null when the analyses are off
  std::uint32_t width = 32;
  std::vector<Word> regs;        // slot s of lane l at regs[s * width + l]
  std::vector<std::byte> vars;   // lane l's Function variables at vars[l * var_stride]
  std::uint32_t var_stride = 0;

  // ---- which subgroup
  WorkgroupState* group = nullptr;
  std::uint32_t subgroup = 0;
  Mask present = 0;  // lanes that exist (a workgroup's last subgroup may be partial)
  std::array<std::uint32_t, 64> local_index{};
  std::array<std::array<std::uint32_t, 64>, 3> local_id{};

  // ---- execution
  std::uint32_t pc = 0;
  Mask active = 0;
  Mask live = 0;  // lanes that have not returned from the kernel
  RunState state = RunState::Done;
  std::vector<ControlFrame> stack;
  std::uint32_t frame_base = 0;  // first stack entry of the current function
  std::uint32_t waiting_pc = 0;  // AtBarrier: the barrier instruction

  // ---- loops: spin-wait detection and the runaway watchdog
  bool iteration_polled = false;  // this iteration read memory others may write (atomics, coherent)
  bool iteration_wrote = false;   // this iteration wrote buffer or shared memory
  std::uint32_t spin_streak = 0;
  std::uint64_t loop_iterations = 0;

  // ---- statistics
  std::uint64_t lane_ops = 0;
  std::uint64_t issued = 0;
  analysis::SubgroupTracking tracking;

  Word* reg(std::uint32_t slot) { return regs.data() + std::size_t(slot) * width; }
  std::byte* lane_vars(std::uint32_t lane) { return vars.data() + std::size_t(lane) * var_stride; }
  SubgroupCoords coords() const;
  // Global invocation id of `lane`.
  std::array<std::uint32_t, 3> invocation(std::uint32_t lane) const;
};

// Runs `c` until it stops (barrier, spin yield, end, abort).
void run_context(Context& c);

}  // namespace sprig::sim
