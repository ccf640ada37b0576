#include "vk_physical_device.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "vk_result.hpp"

namespace sprig::vk {

namespace {

// 16 bytes as 8-4-4-4-12 lowercase hex digits, the way UUIDs are written.
std::string format_uuid(const std::uint8_t (&bytes)[VK_UUID_SIZE]) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < VK_UUID_SIZE; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

DeviceKind device_kind(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DeviceKind::Discrete;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DeviceKind::Integrated;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DeviceKind::Virtual;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DeviceKind::Cpu;
    default: return DeviceKind::Other;
  }
}

DriverId driver_id(VkDriverId id) {
  switch (id) {
    case VK_DRIVER_ID_NVIDIA_PROPRIETARY: return DriverId::NvidiaProprietary;
    case VK_DRIVER_ID_MESA_LLVMPIPE: return DriverId::MesaLlvmpipe;
    case VK_DRIVER_ID_AMD_PROPRIETARY: return DriverId::AmdProprietary;
    case VK_DRIVER_ID_AMD_OPEN_SOURCE: return DriverId::AmdOpenSource;
    case VK_DRIVER_ID_MESA_RADV: return DriverId::MesaRadv;
    case VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS: return DriverId::IntelProprietaryWindows;
    case VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA: return DriverId::MesaAnv;
    case VK_DRIVER_ID_ARM_PROPRIETARY: return DriverId::ArmProprietary;
    case VK_DRIVER_ID_QUALCOMM_PROPRIETARY: return DriverId::QualcommProprietary;
    case VK_DRIVER_ID_BROADCOM_PROPRIETARY: return DriverId::BroadcomProprietary;
    case VK_DRIVER_ID_MESA_V3DV: return DriverId::MesaV3dv;
    case VK_DRIVER_ID_MESA_TURNIP: return DriverId::MesaTurnip;
    case VK_DRIVER_ID_MESA_PANVK: return DriverId::MesaPanvk;
    case VK_DRIVER_ID_MOLTENVK: return DriverId::MoltenVk;
    default: return id == 0 ? DriverId::Unknown : DriverId::Other;
  }
}

std::vector<std::string> device_extensions(VkPhysicalDevice handle) {
  std::uint32_t count = 0;
  check(vkEnumerateDeviceExtensionProperties(handle, nullptr, &count, nullptr), "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> properties(count);
  check(vkEnumerateDeviceExtensionProperties(handle, nullptr, &count, properties.data()),
        "vkEnumerateDeviceExtensionProperties");
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < count; ++i) names.emplace_back(properties[i].extensionName);
  return names;
}

// A compute-capable queue family, preferring one that can write timestamps.
void choose_queue_family(VkPhysicalDevice handle, DeviceCapabilities& caps) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(handle, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(handle, &count, families.data());
  for (std::uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0 || families[i].queueCount == 0) continue;
    bool better = caps.queue_family == UINT32_MAX ||
                  (caps.timestamp_valid_bits == 0 && families[i].timestampValidBits > 0);
    if (better) {
      caps.queue_family = i;
      caps.timestamp_valid_bits = families[i].timestampValidBits;
    }
  }
}

}  // namespace

PhysicalDevice describe_physical_device(VkPhysicalDevice handle, std::uint32_t instance_api) {
  PhysicalDevice device;
  device.handle = handle;
  DeviceInfo& info = device.info;
  DeviceCapabilities& caps = device.caps;

  VkPhysicalDeviceProperties basic{};
  vkGetPhysicalDeviceProperties(handle, &basic);
  caps.api_version = std::min(basic.apiVersion, instance_api);
  info.name = basic.deviceName;
  info.backend = "vulkan";
  info.kind = device_kind(basic.deviceType);
  info.type = std::string(to_string(info.kind));
  if (caps.api_version < VK_API_VERSION_1_2) {
    device.unusable_reason = "supports only Vulkan " + std::to_string(VK_API_VERSION_MAJOR(basic.apiVersion)) + "." +
                             std::to_string(VK_API_VERSION_MINOR(basic.apiVersion)) + " (sprig needs 1.2)";
  }

  std::vector<std::string> extensions = device_extensions(handle);
  auto has_extension = [&](const char* name) { return std::find(extensions.begin(), extensions.end(), name) != extensions.end(); };
  caps.portability_subset = has_extension("VK_KHR_portability_subset");
  caps.memory_budget = has_extension(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  bool core13 = caps.api_version >= VK_API_VERSION_1_3;
  caps.non_semantic_info_extension = !core13 && has_extension(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
  caps.non_semantic_info = core13 || caps.non_semantic_info_extension;
  bool executable_properties = has_extension(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (core13) {
    caps.subgroup_size_control = SubgroupSizeControl::Core;
  } else if (has_extension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME)) {
    caps.subgroup_size_control = SubgroupSizeControl::Extension;
  }

  // ---- features
  VkPhysicalDeviceSubgroupSizeControlFeatures size_control_features{};
  size_control_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  VkPhysicalDeviceVulkan12Features features12{};
  features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_features{};
  executable_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  if (caps.api_version >= VK_API_VERSION_1_2) features.pNext = &features12;
  if (caps.subgroup_size_control != SubgroupSizeControl::Unsupported) {
    // The 1.3 core struct and the EXT struct are the same type with the same sType value.
    size_control_features.pNext = features.pNext;
    features.pNext = &size_control_features;
  }
  if (executable_properties) {
    executable_features.pNext = features.pNext;
    features.pNext = &executable_features;
  }
  vkGetPhysicalDeviceFeatures2(handle, &features);
  caps.pipeline_executable_info = executable_properties && executable_features.pipelineExecutableInfo == VK_TRUE;
  caps.shader_int64 = features.features.shaderInt64 == VK_TRUE;
  caps.vulkan_memory_model = features12.vulkanMemoryModel == VK_TRUE;
  caps.vulkan_memory_model_device_scope = features12.vulkanMemoryModelDeviceScope == VK_TRUE;
  caps.buffer_int64_atomics = features12.shaderBufferInt64Atomics == VK_TRUE;
  caps.shared_int64_atomics = features12.shaderSharedInt64Atomics == VK_TRUE;
  caps.subgroup_broadcast_dynamic_id = features12.subgroupBroadcastDynamicId == VK_TRUE;
  caps.subgroup_extended_types = features12.shaderSubgroupExtendedTypes == VK_TRUE;
  if (size_control_features.subgroupSizeControl != VK_TRUE) caps.subgroup_size_control = SubgroupSizeControl::Unsupported;
  caps.compute_full_subgroups = caps.subgroup_size_control != SubgroupSizeControl::Unsupported &&
                                size_control_features.computeFullSubgroups == VK_TRUE;

  // ---- properties
  VkPhysicalDeviceSubgroupSizeControlProperties size_control{};
  size_control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES;
  VkPhysicalDeviceMaintenance3Properties maintenance3{};
  maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  VkPhysicalDeviceFloatControlsProperties float_controls{};
  float_controls.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
  float_controls.pNext = &maintenance3;
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  driver.pNext = &float_controls;  // both core in Vulkan 1.2, like this branch of the chain
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  subgroup.pNext = caps.api_version >= VK_API_VERSION_1_2 ? static_cast<void*>(&driver) : &maintenance3;
  if (caps.subgroup_size_control != SubgroupSizeControl::Unsupported) maintenance3.pNext = &size_control;
  VkPhysicalDeviceIDProperties ids{};  // core since Vulkan 1.1
  ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
  ids.pNext = &subgroup;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &ids;
  vkGetPhysicalDeviceProperties2(handle, &properties);
  info.uuid = format_uuid(ids.deviceUUID);
  const VkPhysicalDeviceLimits& limits = properties.properties.limits;
  caps.vendor_id = properties.properties.vendorID;
  caps.device_id = properties.properties.deviceID;
  caps.driver_version = properties.properties.driverVersion;
  std::copy(std::begin(properties.properties.pipelineCacheUUID), std::end(properties.properties.pipelineCacheUUID),
            caps.pipeline_cache_uuid.begin());

  caps.float32_denorm_preserve = float_controls.shaderDenormPreserveFloat32 == VK_TRUE;
  caps.float32_signed_zero_inf_nan_preserve = float_controls.shaderSignedZeroInfNanPreserveFloat32 == VK_TRUE;
  caps.float32_rounding_mode_rte = float_controls.shaderRoundingModeRTEFloat32 == VK_TRUE;
  info.driver = driver_id(driver.driverID);
  info.driver_version = driver.driverInfo;
  info.quirks = quirks_of(info.driver);

  info.subgroup_size = subgroup.subgroupSize;
  info.min_subgroup_size = info.max_subgroup_size = subgroup.subgroupSize;
  if (caps.subgroup_size_control != SubgroupSizeControl::Unsupported &&
      (size_control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0) {
    info.min_subgroup_size = size_control.minSubgroupSize;
    info.max_subgroup_size = size_control.maxSubgroupSize;
    caps.max_compute_workgroup_subgroups = size_control.maxComputeWorkgroupSubgroups;
  } else {
    // Without control over compute stages only the default size can be relied on.
    caps.subgroup_size_control = SubgroupSizeControl::Unsupported;
    caps.compute_full_subgroups = false;
  }
  info.max_shared_memory = limits.maxComputeSharedMemorySize;
  info.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) {
    info.max_workgroup_size[i] = limits.maxComputeWorkGroupSize[i];
    info.max_workgroup_count[i] = limits.maxComputeWorkGroupCount[i];
  }
  info.max_buffer_bytes = limits.maxStorageBufferRange;

  caps.min_storage_buffer_offset_alignment = limits.minStorageBufferOffsetAlignment;
  caps.min_uniform_buffer_offset_alignment = limits.minUniformBufferOffsetAlignment;
  caps.non_coherent_atom_size = limits.nonCoherentAtomSize;
  caps.max_memory_allocation_size = maintenance3.maxMemoryAllocationSize;
  if (maintenance3.maxMemoryAllocationSize != 0) info.max_allocation_bytes = maintenance3.maxMemoryAllocationSize;
  caps.max_uniform_buffer_range = limits.maxUniformBufferRange;
  caps.max_push_constants_size = limits.maxPushConstantsSize;
  caps.max_per_stage_storage_buffers = limits.maxPerStageDescriptorStorageBuffers;
  caps.max_per_stage_uniform_buffers = limits.maxPerStageDescriptorUniformBuffers;

  ir::Features& supported = info.supported;
  supported.int64 = caps.shader_int64;
  supported.int64_atomics = caps.shader_int64 && caps.buffer_int64_atomics && caps.shared_int64_atomics;
  if ((subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0) {
    VkSubgroupFeatureFlags ops = subgroup.supportedOperations;
    supported.subgroup_basic = (ops & VK_SUBGROUP_FEATURE_BASIC_BIT) != 0;
    supported.subgroup_vote = (ops & VK_SUBGROUP_FEATURE_VOTE_BIT) != 0;
    supported.subgroup_ballot = (ops & VK_SUBGROUP_FEATURE_BALLOT_BIT) != 0;
    supported.subgroup_shuffle = (ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) != 0;
    supported.subgroup_shuffle_relative = (ops & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT) != 0;
    supported.subgroup_arithmetic = (ops & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) != 0;
  }

  choose_queue_family(handle, caps);
  if (caps.queue_family == UINT32_MAX && device.unusable_reason.empty()) device.unusable_reason = "has no compute queue";
  // A zero period marks "no timestamps": launch timings then read 0.
  info.timestamp_period_ns = caps.timestamp_valid_bits > 0 ? limits.timestampPeriod : 0.0;
  return device;
}

void hide_extensions(DeviceCapabilities& caps, const std::vector<std::string>& hidden) {
  for (const std::string& name : hidden) {
    if (name == VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME) {
      caps.non_semantic_info = caps.non_semantic_info_extension = false;
    } else if (name == VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME) {
      caps.pipeline_executable_info = false;
    }
  }
}

}  // namespace sprig::vk
