#include "launch_analysis.hpp"

namespace sprig::sim::analysis {

LaunchAnalysis::LaunchAnalysis(const LaunchState& launch, const AnalysisOptions& options, ShadowCache& shadows)
    : launch_(launch), shadows_(shadows) {
  const std::size_t code = launch.program->code.size();
  if (options.coalescing) coalescing_.emplace(options, code, launch.width);
  const auto& size = launch.kernel->workgroup_size;
  const std::uint64_t subgroups = std::uint64_t(launch.workgroups[0]) * launch.workgroups[1] * launch.workgroups[2] *
                                  ((size[0] * size[1] * size[2] + launch.width - 1) / launch.width);
  std::uint32_t floor = 0;
  // Launches of 2^32 subgroups and more go without race detection (subgroups have 32-bit numbers).
  if (options.races && shadows.begin_launch(subgroups, floor)) races_.emplace(launch, shadows, floor);
  if (options.idleness) {
    idleness_.emplace(code);
    pc_issued_.assign(code, 0);
    pc_lanes_.assign(code, 0);
  }
}

void LaunchAnalysis::workgroup_begin(WorkgroupState& wg) {
  if (races_) races_->workgroup_begin(wg);
}

void LaunchAnalysis::subgroup_begin(Context& c) {
  if (races_) races_->subgroup_begin(c);
  if (!idleness_) return;
  SubgroupTracking& t = c.tracking;
  t.idle_mark = c.issued;
  if (t.pc_issued.size() != pc_issued_.size()) {
    t.pc_issued.assign(pc_issued_.size(), 0);
    t.pc_lanes.assign(pc_issued_.size(), 0);
  }
  // Lanes whose global invocation id is outside the grid the launch asked for; none in a
  // workgroup that lies wholly inside it (all but the last few), which is not looked at per lane.
  t.grid_tail = 0;
  const auto& size = launch_.kernel->workgroup_size;
  bool inside = true;
  for (int d = 0; d < 3; ++d)
    inside = inside && (launch_.grid[d] == 0 || (std::uint64_t(c.group->id[d]) + 1) * size[d] <= launch_.grid[d]);
  if (inside) return;
  for_each_lane(c.present, [&](std::uint32_t lane) {
    const auto id = c.invocation(lane);
    for (int d = 0; d < 3; ++d)
      if (launch_.grid[d] != 0 && id[d] >= launch_.grid[d]) t.grid_tail |= lane_bit(lane);
  });
}

void LaunchAnalysis::add_counters(const Context& c) {
  if (!idleness_ || c.tracking.pc_issued.empty()) return;
  for (std::size_t pc = 0; pc < pc_issued_.size(); ++pc) {
    pc_issued_[pc] += c.tracking.pc_issued[pc];
    pc_lanes_[pc] += c.tracking.pc_lanes[pc];
  }
}

LaunchFindings LaunchAnalysis::finish() {
  LaunchFindings f;
  f.subgroup_size = launch_.width;
  if (coalescing_) f.accesses = coalescing_->by_pc();
  if (races_) {
    f.races = races_->findings();
    shadows_.end_launch();
  }
  if (idleness_) {
    f.branches = idleness_->by_pc();
    f.idle = idleness_->kernel();
    f.pc_issued = std::move(pc_issued_);
    f.pc_lanes = std::move(pc_lanes_);
  }
  return f;
}

}  // namespace sprig::sim::analysis
