// How the MSM's kernels number their invocations: workgroups (of 64 unless a kernel says
// otherwise) laid out in rows, so that a launch may hold more invocations than one
// dimension's 65,535 workgroups allow (2^24 points in one window need 262,144).
#pragma once

#include <cstdint>

#include "sprig/stdlib/tiling.hpp"

namespace sprig::curve::detail {

inline constexpr std::uint32_t msm_workgroup_size = 64;

// A grid of at least `count` invocations; each kernel guards its tail itself.
inline Grid msm_grid(std::uint64_t count, std::uint32_t workgroup_size = msm_workgroup_size) {
  std::uint64_t workgroups = (count + workgroup_size - 1) / workgroup_size;
  return sprig::detail::tile_grid(workgroups, sprig::detail::TileShape{workgroup_size, 1});
}

// This invocation's index in a msm_grid launch of the same workgroup size.
inline UInt msm_invocation(std::uint32_t workgroup_size = msm_workgroup_size) {
  return sprig::detail::linear_workgroup_id() * workgroup_size + local_index();
}

}  // namespace sprig::curve::detail
