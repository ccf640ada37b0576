// VkResult -> readable errors. Every failing Vulkan call becomes a sprig::DeviceError that
// names the call and the result code.
#pragma once

#include <string>
#include <string_view>

#include <volk.h>

namespace sprig::vk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY", or "VkResult(-42)" for a code this build does not know.
std::string result_name(VkResult result);

// Throws DeviceError("<what> failed: <result name>") unless `result` is VK_SUCCESS.
// `what` names the call and, where one exists, the kernel and source line.
void check(VkResult result, std::string_view what);

}  // namespace sprig::vk
