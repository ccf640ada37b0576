// The dispatch loop: one instruction at a time for a whole subgroup; each handler loops
// over the lanes itself, so the cost of dispatch is paid once per subgroup, not per lane.
#include "context.hpp"
#include "analysis/launch_analysis.hpp"
#include "launch_state.hpp"

namespace sprig::sim {

namespace {

void run_plain(Context& c) {
  const Instr* code = c.program->code.data();
  while (c.state == RunState::Running) {
    const Instr& in = code[c.pc++];
    c.lane_ops += in.weight * std::uint64_t(lane_count(c.active));
    c.issued += in.weight;
    in.run(c, in);
  }
}

// The same, also counting per instruction for the per-line figures of the idleness
// analysis.
void run_counting(Context& c) {
  const Instr* code = c.program->code.data();
  std::uint64_t* issued = c.tracking.pc_issued.data();
  std::uint64_t* lanes = c.tracking.pc_lanes.data();
  while (c.state == RunState::Running) {
    const std::uint32_t pc = c.pc++;
    const Instr& in = code[pc];
    const std::uint64_t active = in.weight * std::uint64_t(lane_count(c.active));
    c.lane_ops += active;
    c.issued += in.weight;
    issued[pc] += in.weight;
    lanes[pc] += active;
    in.run(c, in);
  }
}

}  // namespace

void run_context(Context& c) {
  if (c.analysis && c.analysis->idleness()) [[unlikely]]
    run_counting(c);
  else
    run_plain(c);
}

SubgroupCoords Context::coords() const { return SubgroupCoords{group->id, subgroup, width}; }

std::array<std::uint32_t, 3> Context::invocation(std::uint32_t lane) const {
  const auto& size = program->kernel->workgroup_size;
  return {group->id[0] * size[0] + local_id[0][lane], group->id[1] * size[1] + local_id[1][lane],
          group->id[2] * size[2] + local_id[2][lane]};
}

}  // namespace sprig::sim
