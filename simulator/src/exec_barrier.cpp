// Barriers. A workgroup control barrier suspends the subgroup; the workgroup scheduler
// (scheduler.cpp) releases all subgroups once every one of them waits there. A
// barrier must be reached by all invocations still running, so a subgroup arriving with
// some of its live lanes inactive is an error at the barrier's line. Memory barriers need
// no action on memory (the simulator's memory is sequentially consistent); they order
// accesses for the race detector.
#include "analysis/launch_analysis.hpp"
#include "launch_state.hpp"
#include "program_builder.hpp"

namespace sprig::sim {

namespace {

[[gnu::cold]] void divergent_arrival(Context& c, const Instr& in) {
  const std::uint32_t missing = lowest_lane(c.live & ~c.active);
  report_problem(c, Problem::BarrierDivergence, in.node, missing, [&] {
    return "barrier in divergent control flow: " + std::to_string(lane_count(c.active)) + " of the " +
           std::to_string(lane_count(c.live)) + " running invocations of subgroup " + std::to_string(c.subgroup) +
           " reach it (the invocation shown does not); every invocation of the workgroup must reach each barrier";
  });
}

void workgroup_barrier(Context& c, const Instr& in) {
  if (c.active != c.live) [[unlikely]]
    divergent_arrival(c, in);
  if (c.state == RunState::Running) c.state = RunState::AtBarrier;
  c.waiting_pc = std::uint32_t(&in - c.program->code.data());
}

// Lanes of a subgroup run in lockstep, so a subgroup barrier only checks convergence.
void subgroup_barrier(Context& c, const Instr& in) {
  if (c.active != c.live) [[unlikely]]
    divergent_arrival(c, in);
  if (c.analysis) [[unlikely]]
    c.analysis->subgroup_barrier(c);
}

// The race detector's happens-before needs release and acquire fences (aux = the order).
void memory_barrier(Context& c, const Instr& in) {
  if (c.analysis) [[unlikely]]
    c.analysis->fence(c, ir::MemoryOrder(in.aux));
}

}  // namespace

void lower_barrier(ProgramBuilder&, const ir::Node& n, Instr& in) {
  ir::BarrierInfo info = ir::barrier_info(n.b);
  const bool within_subgroup =
      info.execution_scope == ir::Scope::Subgroup || info.execution_scope == ir::Scope::Invocation;
  in.aux = std::uint32_t(info.order);
  if (ir::BarrierKind(n.a) == ir::BarrierKind::Memory) in.run = memory_barrier;
  else if (within_subgroup) in.run = subgroup_barrier;
  else in.run = workgroup_barrier;
}

}  // namespace sprig::sim
