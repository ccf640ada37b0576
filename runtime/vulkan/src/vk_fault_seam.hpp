// Where the backend asks Options::faults whether a Vulkan call must fail.
#pragma once

#include <volk.h>

#include "sprig/runtime/vk_faults.hpp"

namespace sprig::vk {

// The VkResult the next call at `site` must return instead of calling the driver, or
// VK_SUCCESS (make the call). Costs one null test without an injector.
VkResult injected_result(FaultInjector* faults, FaultSite site);

}  // namespace sprig::vk
