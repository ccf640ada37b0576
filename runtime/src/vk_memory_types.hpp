// Which Vulkan memory types suit which use, best first.
#pragma once

#include <cstdint>
#include <vector>

#include <volk.h>

namespace sprig::vk {

enum class MemoryUse : std::uint8_t {
  DeviceLocal,  // kernels' data: device-local, not host-visible where possible (no BAR)
  HostVisible,  // mapped buffers: HOST_VISIBLE|HOST_COHERENT, DEVICE_LOCAL too if offered
  Staging,      // transfers: HOST_VISIBLE|HOST_COHERENT, HOST_CACHED too if offered (readback)
};

const char* memory_use_name(MemoryUse use);

// Indices of memory types allowed by `type_bits` that fit `use`, in order of preference.
// Empty if none fits.
std::vector<std::uint32_t> memory_type_candidates(const VkPhysicalDeviceMemoryProperties& properties,
                                                  std::uint32_t type_bits, MemoryUse use);

}  // namespace sprig::vk
