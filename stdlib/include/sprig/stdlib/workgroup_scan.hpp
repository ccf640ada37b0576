// The second level of a workgroup scan: each subgroup has folded its own part of a tile;
// this scans those per-subgroup totals in subgroup order, so every subgroup learns the
// fold of the subgroups before it and the workgroup learns the tile's total.
//
// The number of subgroups is read at run time (num_subgroups()), so the scan is right for
// any subgroup size; subgroup 0 walks the totals in chunks of its own size.
#pragma once

#include "sprig/stdlib/spin_safe_barrier.hpp"
#include "sprig/stdlib/subgroup_scan.hpp"

namespace sprig::detail {

template <DeviceValue T, AssociativeOperator Op>
class SubgroupTotalsScan {
 public:
  // Construct at the top level of the kernel, after `lanes`.
  SubgroupTotalsScan(const SubgroupScan<T, Op>& lanes, std::uint32_t workgroup_invocations)
      : lanes_(lanes), totals_(shared_array<T>(workgroup_invocations, "subgroup_totals")) {}

  // Every invocation calls this with its subgroup's total (in uniform control flow).
  // Subgroup 0 replaces the totals by their inclusive scan and then runs
  // `with_workgroup_total(total)` (e.g. the look-back), still inside subgroup 0. After the
  // closing barrier (`closing`, if given: needed when with_workgroup_total spins),
  // exclusive_prefix() and workgroup_total() may be read. Reusing the same object needs a
  // barrier() between the reads and the next scan.
  template <class F>
  void scan(const Expr<T>& subgroup_total, F&& with_workgroup_total, const SpinSafeBarrier* closing = nullptr) {
    UInt subgroup = subgroup_id(), subgroups = num_subgroups(), lane = lanes_.lane();
    if_(lane == 0u, [&] { totals_[subgroup] = subgroup_total; });
    barrier();
    if_(subgroup == 0u, [&] {
      Var<T> carry = lanes_.identity();
      for_(0u, subgroups, lanes_.size(), [&](UInt base) {
        UInt i = base + lane;
        Var<T> v = lanes_.identity();
        if_(i < subgroups, [&] { v = Expr<T>(totals_[i]); });
        Expr<T> running = lanes_.op()(carry.load(), lanes_.inclusive(v.load()));
        if_(i < subgroups, [&] { totals_[i] = running; });
        carry = lanes_.last(running);
      });
      with_workgroup_total(carry.load());
    });
    if (closing) closing->arrive_and_wait();
    else barrier();
  }
  void scan(const Expr<T>& subgroup_total) {
    scan(subgroup_total, [](const Expr<T>&) {});
  }

  // The fold of the totals of the subgroups before this invocation's subgroup.
  Expr<T> exclusive_prefix() const {
    UInt subgroup = subgroup_id();
    Var<T> prefix = lanes_.identity();
    if_(subgroup > 0u, [&] { prefix = Expr<T>(totals_[subgroup - 1u]); });
    return prefix.load();
  }
  Expr<T> workgroup_total() const { return totals_[num_subgroups() - 1u]; }

 private:
  const SubgroupScan<T, Op>& lanes_;
  SharedArray<T> totals_;
};

}  // namespace sprig::detail
