// Running one launch: workgroups in dispatch order, each as a set of resumable subgroup
// contexts; workgroups that wait on each other are interleaved, and a wait nobody can end
// becomes a deadlock diagnostic instead of a hang.
#pragma once

#include <cstdint>

#include "launch_state.hpp"

namespace sprig::sim {

struct LaunchTotals {
  std::uint64_t lane_operations = 0;
  std::uint64_t issued = 0;
};

LaunchTotals run_launch(LaunchState& launch);

}  // namespace sprig::sim
