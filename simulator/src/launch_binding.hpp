// Checking a launch against the simulated device (the same rules and messages as the
// Vulkan backend: bindings, push constants, limits) and resolving its arguments into the
// memory a LaunchState points at.
#pragma once

#include <cstdint>

#include "launch_state.hpp"
#include "sprig/runtime/backend.hpp"

namespace sprig::sim {

// Throws DeviceError naming the kernel and the launching line if `launch` cannot run.
void check_launch(const Launch& launch, const DeviceInfo& device, std::uint64_t device_id);

// Subgroup width for `kernel`: its required size, or the device's.
std::uint32_t subgroup_width(const ir::Kernel& kernel, const DeviceInfo& device);

// Fills the memory fields of `state` (buffers, uniforms, push constants, grid).
void bind_launch(const Launch& launch, std::uint64_t device_id, LaunchState& state);

}  // namespace sprig::sim
