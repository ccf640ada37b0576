// Running one launch: workgroups in dispatch order, each as a set of resumable subgroup
// contexts; workgroups that wait on each other are interleaved, and a wait nobody can end
// becomes a deadlock diagnostic instead of a hang.
#pragma once

#include <atomic>
#include <cstdint>

#include "launch_state.hpp"

namespace sprig::sim {

struct LaunchTotals {
  std::uint64_t lane_operations = 0;
  std::uint64_t issued = 0;
};

LaunchTotals run_launch(LaunchState& launch);

// One worker of a parallel launch (parallel_launch.hpp): claims `chunk` workgroups at a
// time from `next` (so its own are in increasing order) and runs each to its end; stops,
// setting `failed`, at anything only a one-thread run may handle (a diagnostic, a wait on
// another workgroup, a contact between workgroups).
LaunchTotals run_workgroups(LaunchState& launch, std::atomic<std::uint64_t>& next, std::uint64_t chunk,
                            std::atomic<bool>& failed);

}  // namespace sprig::sim
