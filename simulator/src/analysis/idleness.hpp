// Idle lanes: every operation a subgroup issues with some of its lanes inactive leaves
// those lanes idle for one lane-step, and the analysis says why. Masks only change at
// control instructions, so the breakdown is computed there (flush) and applied to all
// operations issued since the last change: lanes beyond the launched grid are the grid's
// tail, lanes that returned returned early, lanes past the end of the workgroup are a
// partial subgroup, and lanes still running but inactive are charged to the innermost
// if_ (masked by the branch) or loop (trip-count imbalance) that they did not enter.
// Each if_ and loop also counts its subgroup-level executions and the divergent ones.
#pragma once

#include <cstdint>
#include <vector>

#include "../context.hpp"
#include "sprig/simulator/report.hpp"

namespace sprig::sim::analysis {

struct BranchFigures {
  std::uint64_t executions = 0;  // subgroup-level branch executions (BranchSite)
  std::uint64_t divergent = 0;
  std::uint64_t iterations = 0;  // loops: iterations started
  std::uint64_t idle_lane_steps = 0;  // lanes within the grid this construct masked
  std::uint64_t tail_lane_steps = 0;  // lanes beyond the grid this construct masked

  // Figures of the same construct from another worker thread (every figure is a count).
  BranchFigures& operator+=(const BranchFigures& b) {
    executions += b.executions;
    divergent += b.divergent;
    iterations += b.iterations;
    idle_lane_steps += b.idle_lane_steps;
    tail_lane_steps += b.tail_lane_steps;
    return *this;
  }
};

class IdlenessAnalysis {
 public:
  explicit IdlenessAnalysis(std::size_t code_size) : by_pc_(code_size) {}

  // Accounts for the operations issued since the last call; call before any mask change.
  void flush(Context& c);
  // A subgroup reached the if_ at `pc` with `present` lanes, `taken` of which take it.
  void if_reached(std::uint32_t pc, Mask present, Mask taken);
  // A subgroup enters the loop at `pc`: one execution, however many iterations follow.
  void loop_entered(std::uint32_t pc);
  // The loop of frame `f` reaches an iteration's start with `staying` of its lanes iterating;
  // the first time fewer than all that entered go on, its execution diverges.
  void iteration(ControlFrame& f, Mask staying);

  const std::vector<BranchFigures>& by_pc() const { return by_pc_; }
  const IdleLaneSteps& kernel() const { return kernel_; }

 private:
  std::vector<BranchFigures> by_pc_;
  IdleLaneSteps kernel_;
};

}  // namespace sprig::sim::analysis
