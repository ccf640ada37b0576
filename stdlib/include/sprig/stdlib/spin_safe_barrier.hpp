// A workgroup barrier to use after some of the workgroup's subgroups spin-waited on
// memory that other workgroups write (decoupled look-back).
//
// Why: lavapipe (Mesa's Vulkan driver on the CPU) lets a workgroup barrier complete while
// one of the workgroup's subgroups is still inside such a spin loop — the loop yields to
// the other subgroups, which the barrier then counts as arrived — so the subgroups past
// the barrier read shared memory the spinning one has not written yet. The repro is the
// test case "a barrier after a spin-wait on another workgroup holds" in
// tests/stdlib/spin_safe_barrier_test.cpp. Where that can happen, every subgroup
// announces its arrival on a shared counter and waits for all of them before the real
// barrier; elsewhere this is a plain barrier (waiting warps would only steal issue slots).
// The waiting subgroups pause between polls of the counter where the driver caps loops
// (poll_pause.hpp): they wait as long as the look-back does.
#pragma once

#include <optional>

#include "sprig/dsl.hpp"
#include "sprig/runtime/backend.hpp"
#include "sprig/stdlib/poll_pause.hpp"

namespace sprig::detail {

// Whether the device needs the counter (see above; Quirk::BarrierPassesSpinningSubgroup).
inline bool barrier_needs_arrival_counter(const DeviceInfo& device) {
  return device.quirks.has(Quirk::BarrierPassesSpinningSubgroup);
}

class SpinSafeBarrier {
 public:
  // Construct at the top level of the kernel; `reset()` must then run before a barrier
  // that precedes the first `arrive_and_wait()`.
  explicit SpinSafeBarrier(bool counted, const PollPause& pause = {}) : pause_{0, pause.straight_divisions} {
    if (counted) arrived_.emplace(shared<std::uint32_t>("subgroups_arrived"));
  }

  void reset() const {
    if (arrived_) if_(local_index() == 0u, [&] { *arrived_ = 0u; });
  }

  // Called by every invocation, in uniform control flow of the workgroup.
  void arrive_and_wait() const { arrive_and_wait(UInt(0u)); }

  // The same for the barrier's use number `use` (from 0) since the reset, as in a loop: the
  // counter is never reset between uses, so a subgroup still polling it cannot see it drop
  // back below its own use's arrivals.
  void arrive_and_wait(const UInt& use) const {
    if (arrived_) {
      if_(subgroup_elect(), [&] { atomic_add(*arrived_, 1u, MemoryOrder::Release, Scope::Workgroup); });
      UInt all_arrived = num_subgroups() * (use + 1u);
      Var<std::uint32_t> seen = 0u;
      while_([&] {
        seen = atomic_load(*arrived_, MemoryOrder::Acquire, Scope::Workgroup);
        return seen.load() < all_arrived;
      }, [&] { pause_before_next_poll(pause_, seen.load()); });
    }
    barrier();
  }

 private:
  std::optional<Place<std::uint32_t, Access::ReadWrite>> arrived_;
  PollPause pause_;
};

}  // namespace sprig::detail
