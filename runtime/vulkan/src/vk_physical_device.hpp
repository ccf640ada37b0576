// What sprig knows about a Vulkan physical device: the backend-neutral DeviceInfo the user
// sees, plus the limits and optional features the backend needs to create and use it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <volk.h>

#include "sprig/runtime/backend.hpp"

namespace sprig::vk {

enum class SubgroupSizeControl : std::uint8_t { Unsupported, Core, Extension };

struct DeviceCapabilities {
  std::uint32_t api_version = 0;  // what instance and device both support
  std::uint32_t queue_family = UINT32_MAX;
  std::uint32_t timestamp_valid_bits = 0;  // of queue_family; 0 means no timestamps

  VkDeviceSize min_storage_buffer_offset_alignment = 1;
  VkDeviceSize min_uniform_buffer_offset_alignment = 1;
  VkDeviceSize non_coherent_atom_size = 1;
  VkDeviceSize max_memory_allocation_size = 0;
  std::uint32_t max_uniform_buffer_range = 0;
  std::uint32_t max_push_constants_size = 0;
  std::uint32_t max_per_stage_storage_buffers = 0;
  std::uint32_t max_per_stage_uniform_buffers = 0;
  std::uint32_t max_compute_workgroup_subgroups = 0;  // 0 when subgroup size control is absent

  // Optional features, enabled at device creation when present.
  bool shader_int64 = false;
  bool vulkan_memory_model = false, vulkan_memory_model_device_scope = false;
  bool buffer_int64_atomics = false, shared_int64_atomics = false;
  bool subgroup_broadcast_dynamic_id = false, subgroup_extended_types = false;
  SubgroupSizeControl subgroup_size_control = SubgroupSizeControl::Unsupported;
  bool compute_full_subgroups = false;
  bool portability_subset = false;  // the device requires VK_KHR_portability_subset enabled
  bool memory_budget = false;       // VK_EXT_memory_budget: the driver's per-heap budget and usage
  // Debugging and profiling aids (docs/debugging.md). Non-semantic info lets modules carry
  // source-level debug info; it is core in Vulkan 1.3 and an extension to enable before.
  bool non_semantic_info = false, non_semantic_info_extension = false;
  // VK_KHR_pipeline_executable_properties with its pipelineExecutableInfo feature: the
  // driver's statistics of each compiled pipeline.
  bool pipeline_executable_info = false;
  // 32-bit float controls a shader may declare (Vulkan 1.2); precise-float kernels use them.
  bool float32_denorm_preserve = false, float32_signed_zero_inf_nan_preserve = false,
       float32_rounding_mode_rte = false;

  // What a driver's pipeline cache data is valid for (its header repeats them).
  std::uint32_t vendor_id = 0, device_id = 0, driver_version = 0;
  std::array<std::uint8_t, VK_UUID_SIZE> pipeline_cache_uuid{};
};

struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  DeviceInfo info;
  DeviceCapabilities caps;
  std::string unusable_reason;  // empty when sprig can run kernels on it
};

// Queries properties, limits and features. `instance_api` caps the usable API version.
PhysicalDevice describe_physical_device(VkPhysicalDevice handle, std::uint32_t instance_api);

// For tests (Options::hidden_extensions): forgets the debugging and profiling extensions
// named in `hidden`, even where they are core, as if the device lacked them.
void hide_extensions(DeviceCapabilities& caps, const std::vector<std::string>& hidden);

}  // namespace sprig::vk
