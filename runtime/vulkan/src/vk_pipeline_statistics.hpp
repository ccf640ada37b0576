// The driver's statistics of a compiled pipeline (VK_KHR_pipeline_executable_properties):
// for each of its executables, whatever the driver reports (registers, shared memory,
// spills, instruction counts), under the driver's own names.
#pragma once

#include <memory>

#include <volk.h>

#include "sprig/runtime/profile.hpp"

namespace sprig::vk {

// The statistics of `pipeline`, created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR on
// a device with pipelineExecutableInfo enabled; where the driver reports none or fails,
// statistics that say so.
std::shared_ptr<const KernelStatistics> read_pipeline_statistics(VkDevice device, const VolkDeviceTable& vk,
                                                                 VkPipeline pipeline);

}  // namespace sprig::vk
