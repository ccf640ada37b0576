// Creating the VkDevice with every optional feature a kernel may need that the physical
// device offers, so pipelines never fail for a feature that exists but is off.
#pragma once

#include <volk.h>

#include "vk_physical_device.hpp"

namespace sprig::vk {

// One queue of physical.caps.queue_family. Throws DeviceError on failure.
// `pipeline_statistics` enables the feature that lets pipelines capture the driver's
// statistics (only when asked for: drivers may keep more of each pipeline for it).
VkDevice create_logical_device(const PhysicalDevice& physical, bool pipeline_statistics);

}  // namespace sprig::vk
