#include "vk_logical_device.hpp"

#include <vector>

#include "vk_result.hpp"

namespace sprig::vk {

VkDevice create_logical_device(const PhysicalDevice& physical, bool pipeline_statistics) {
  const DeviceCapabilities& caps = physical.caps;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = caps.queue_family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;

  std::vector<const char*> extensions;
  if (caps.portability_subset) extensions.push_back("VK_KHR_portability_subset");  // required when offered
  if (caps.memory_budget) extensions.push_back(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  // Modules with source-level debug info need it; others do not mind it.
  if (caps.non_semantic_info_extension) extensions.push_back(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);

  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.features.shaderInt64 = caps.shader_int64 ? VK_TRUE : VK_FALSE;

  VkPhysicalDeviceVulkan12Features features12{};
  features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  features12.vulkanMemoryModel = caps.vulkan_memory_model ? VK_TRUE : VK_FALSE;
  features12.vulkanMemoryModelDeviceScope = caps.vulkan_memory_model_device_scope ? VK_TRUE : VK_FALSE;
  features12.shaderBufferInt64Atomics = caps.buffer_int64_atomics ? VK_TRUE : VK_FALSE;
  features12.shaderSharedInt64Atomics = caps.shared_int64_atomics ? VK_TRUE : VK_FALSE;
  features12.subgroupBroadcastDynamicId = caps.subgroup_broadcast_dynamic_id ? VK_TRUE : VK_FALSE;
  features12.shaderSubgroupExtendedTypes = caps.subgroup_extended_types ? VK_TRUE : VK_FALSE;
  features.pNext = &features12;

  // The promoted struct is valid for 1.3 devices and for the EXT (same sType), and it
  // avoids chaining VkPhysicalDeviceVulkan13Features for just two members.
  VkPhysicalDeviceSubgroupSizeControlFeatures size_control{};
  size_control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  if (caps.subgroup_size_control != SubgroupSizeControl::Unsupported) {
    size_control.subgroupSizeControl = VK_TRUE;
    size_control.computeFullSubgroups = caps.compute_full_subgroups ? VK_TRUE : VK_FALSE;
    features12.pNext = &size_control;
    if (caps.subgroup_size_control == SubgroupSizeControl::Extension) {
      extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    }
  }

  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_info{};
  executable_info.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  if (pipeline_statistics && caps.pipeline_executable_info) {
    executable_info.pipelineExecutableInfo = VK_TRUE;
    executable_info.pNext = features.pNext;
    features.pNext = &executable_info;
    extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  }

  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();

  VkDevice device = VK_NULL_HANDLE;
  check(vkCreateDevice(physical.handle, &info, nullptr, &device), "vkCreateDevice for " + physical.info.name);
  return device;
}

}  // namespace sprig::vk
