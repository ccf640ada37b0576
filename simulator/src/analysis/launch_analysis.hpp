// The analyses of one launch, as the interpreter and scheduler call them: memory accesses
// (coalescing, bank conflicts, races), control flow (idleness), barriers and fences
// (happens-before), workgroup and subgroup starts. Null in the Context when every analysis
// is off, so an unanalysed run pays one predictable branch per hook.
#pragma once

#include <memory>
#include <optional>

#include "coalescing.hpp"
#include "idleness.hpp"
#include "race_detector.hpp"

namespace sprig::sim::analysis {

// What one launch found, by instruction, for the report accumulator to merge.
struct LaunchFindings {
  std::vector<AccessFigures> accesses;  // by pc (empty when coalescing was off)
  std::vector<BranchFigures> branches;  // by pc (empty when idleness was off)
  std::vector<std::uint64_t> pc_issued, pc_lanes;
  IdleLaneSteps idle;
  std::vector<RaceFinding> races;
  std::uint32_t subgroup_size = 0;
};

class LaunchAnalysis {
 public:
  // `shadows` carries the race detector's memory from launch to launch.
  LaunchAnalysis(const LaunchState& launch, const AnalysisOptions& options, ShadowCache& shadows);

  bool idleness() const { return bool(idleness_); }

  void workgroup_begin(WorkgroupState& wg);
  void subgroup_begin(Context& c);
  void workgroup_barrier(WorkgroupState& wg) {
    if (races_) races_->workgroup_barrier(wg);
  }
  void subgroup_barrier(Context& c) {
    if (races_) races_->subgroup_barrier(c);
  }
  void fence(Context& c, ir::MemoryOrder order) {
    if (races_) races_->fence(c, order);
  }

  void memory(Context& c, const Instr& in, const MemoryOp& op, AccessKind kind, Mask lanes,
              const std::uint64_t* offsets) {
    if (!lanes || op.space == ir::Space::Function) return;
    if (coalescing_) {
      const std::uint32_t pc = std::uint32_t(&in - c.program->code.data());
      if (op.space == ir::Space::Workgroup) coalescing_->shared_access(pc, lanes, offsets, op.shape->size);
      else coalescing_->buffer_access(pc, lanes, offsets, op.shape->size);
    }
    if (races_) races_->access(c, in, op, kind, lanes, offsets);
  }

  // Before the active mask changes.
  void mask_changing(Context& c) {
    if (idleness_) idleness_->flush(c);
  }
  void if_reached(std::uint32_t pc, Mask present, Mask taken) {
    if (idleness_) idleness_->if_reached(pc, present, taken);
  }
  void loop_entered(std::uint32_t pc) {
    if (idleness_) idleness_->loop_entered(pc);
  }
  void iteration(ControlFrame& f, Mask staying) {
    if (idleness_) idleness_->iteration(f, staying);
  }

  // Gathers the per-subgroup counters of `contexts` (every context the launch used).
  void add_counters(const Context& c);
  LaunchFindings finish();

 private:
  const LaunchState& launch_;
  ShadowCache& shadows_;
  std::optional<CoalescingAnalysis> coalescing_;
  std::optional<RaceDetector> races_;
  std::optional<IdlenessAnalysis> idleness_;
  std::vector<std::uint64_t> pc_issued_, pc_lanes_;
};

}  // namespace sprig::sim::analysis
