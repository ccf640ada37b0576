// How the algorithms cut their input into tiles: a workgroup of `invocations` processes a
// tile of invocations * items consecutive elements. Each subgroup owns a contiguous run of
// subgroup_size * items elements and reads it "striped" — item j of lane l is element
// j * subgroup_size + l of the run — so every load instruction of a subgroup touches
// consecutive addresses, whatever the subgroup size.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "sprig/dsl.hpp"
#include "sprig/runtime/backend.hpp"
#include "sprig/runtime/launch.hpp"

namespace sprig::detail {

struct TileShape {
  std::uint32_t invocations = 256;  // per workgroup
  std::uint32_t items = 16;         // per invocation
  std::uint32_t elements() const { return invocations * items; }
  std::size_t tiles_for(std::size_t n) const { return (n + elements() - 1) / elements(); }
};

// The largest power of two up to `wanted` invocations that the device runs in one
// workgroup, in all and along x (the only dimension tiles use): shapes shrink to fit
// small GPUs (Vulkan guarantees only 128) and never grow past what was tuned.
inline std::uint32_t fit_invocations(std::uint32_t wanted, const DeviceInfo& device) {
  const std::uint32_t limit = std::min(device.max_workgroup_invocations, device.max_workgroup_size[0]);
  return std::min(wanted, std::bit_floor(std::max(limit, 1u)));
}

// Workgroups are laid out in two dimensions so that more than 65535 tiles can launch.
constexpr std::uint32_t max_workgroups_per_row = 32768;

inline Grid tile_grid(std::size_t tiles, const TileShape& shape) {
  std::size_t per_row = std::min<std::size_t>(std::max<std::size_t>(tiles, 1), max_workgroups_per_row);
  std::size_t rows = (std::max<std::size_t>(tiles, 1) + per_row - 1) / per_row;
  return grid(std::uint64_t(per_row) * shape.invocations, rows);
}

// This workgroup's index in row-major order over the 2D launch.
inline UInt linear_workgroup_id() {
  return workgroup_id().x() + workgroup_id().y() * num_workgroups().x();
}

// One invocation per element for `n` elements in workgroups of `invocations`, laid out as
// tile_grid lays out tiles: element-wise kernels launch more than 65535 workgroups at once,
// so that a long range needs fewer launches, each of which ends in a tail of idle lanes.
inline Grid invocation_rows(std::size_t n, std::uint32_t invocations) {
  return tile_grid((n + invocations - 1) / invocations, TileShape{invocations, 1});
}

// This invocation's element in an invocation_rows launch of workgroups of `invocations`.
inline UInt linear_invocation_id(std::uint32_t invocations) {
  return linear_workgroup_id() * invocations + local_index();
}

// Index of item `item` of this invocation in a tile starting at `tile_first`.
inline UInt striped_index(const UInt& tile_first, std::uint32_t items,
                                         std::uint32_t item) {
  UInt width = subgroup_size();
  return tile_first + subgroup_id() * width * items + width * item + subgroup_invocation_id();
}

}  // namespace sprig::detail
