// Whether a device can run a kernel: its ir::Features, workgroup size and shared memory
// against the device's. Pure, so it is tested without a device.
#pragma once

#include <cstdint>

#include "sprig/dsl/ir.hpp"
#include "sprig/runtime/backend.hpp"

namespace sprig::vk {

// Throws DeviceError naming every missing capability, the kernel and its source line.
// `max_workgroup_subgroups` is maxComputeWorkgroupSubgroups (0: unknown, not checked).
void check_kernel_supported(const ir::Kernel& kernel, const DeviceInfo& device, std::uint32_t max_workgroup_subgroups = 0);

}  // namespace sprig::vk
