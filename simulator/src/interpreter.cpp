// The dispatch loop: one instruction at a time for a whole subgroup; each handler loops
// over the lanes itself, so the cost of dispatch is paid once per subgroup, not per lane.
#include "context.hpp"
#include "launch_state.hpp"

namespace sprig::sim {

void run_context(Context& c) {
  const Instr* code = c.program->code.data();
  while (c.state == RunState::Running) {
    const Instr& in = code[c.pc++];
    c.lane_ops += in.weight * std::uint64_t(lane_count(c.active));
    c.issued += in.weight;
    in.run(c, in);
  }
}

SubgroupCoords Context::coords() const { return SubgroupCoords{group->id, subgroup, width}; }

std::array<std::uint32_t, 3> Context::invocation(std::uint32_t lane) const {
  const auto& size = program->kernel->workgroup_size;
  return {group->id[0] * size[0] + local_id[0][lane], group->id[1] * size[1] + local_id[1][lane],
          group->id[2] * size[2] + local_id[2][lane]};
}

}  // namespace sprig::sim
