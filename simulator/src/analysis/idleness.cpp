#include "idleness.hpp"

namespace sprig::sim::analysis {

void IdlenessAnalysis::flush(Context& c) {
  SubgroupTracking& t = c.tracking;
  const std::uint64_t steps = c.issued - t.idle_mark;
  t.idle_mark = c.issued;
  const Mask all = first_lanes(c.width);
  if (steps == 0 || c.active == all) return;
  kernel_.partial_subgroup += steps * lane_count(all & ~c.present);
  const Mask idle = c.present & ~c.active;
  kernel_.grid_tail += steps * lane_count(idle & t.grid_tail);
  kernel_.returned += steps * lane_count(idle & ~c.live & ~t.grid_tail);
  Mask masked = idle & c.live;
  // The innermost construct a lane entered but is not active in is the one that masked it.
  for (std::size_t i = c.stack.size(); i-- > 0 && masked;) {
    const ControlFrame& f = c.stack[i];
    const Mask here = masked & f.entered;
    if (!here) continue;
    masked &= ~here;
    const Instr& site = c.program->code[f.site_pc];
    const ir::Op op = site.node ? site.node->op : ir::Op::Call;
    const std::uint64_t in_grid = steps * lane_count(here & ~t.grid_tail);
    const std::uint64_t tail = steps * lane_count(here & t.grid_tail);
    if (op == ir::Op::If || op == ir::Op::Loop) {
      BranchFigures& b = by_pc_[f.site_pc];
      b.idle_lane_steps += in_grid;
      b.tail_lane_steps += tail;
      (op == ir::Op::If ? kernel_.branch : kernel_.loop) += in_grid;
    } else {
      kernel_.returned += in_grid;  // returned early from a callable
    }
  }
  kernel_.returned += steps * lane_count(masked & ~t.grid_tail);
}

void IdlenessAnalysis::if_reached(std::uint32_t pc, Mask present, Mask taken) {
  BranchFigures& b = by_pc_[pc];
  ++b.executions;
  b.divergent += taken != 0 && taken != present;
}

void IdlenessAnalysis::loop_entered(std::uint32_t pc) { ++by_pc_[pc].executions; }

void IdlenessAnalysis::iteration(ControlFrame& f, Mask staying) {
  if (!staying) return;
  BranchFigures& b = by_pc_[f.site_pc];
  ++b.iterations;
  // Lanes never rejoin a loop they left, so the split is seen at every later iteration too.
  if (f.split || !(f.entered & ~staying)) return;
  f.split = true;
  ++b.divergent;
}

}  // namespace sprig::sim::analysis
