// A compute pipeline for one kernel: descriptor set layout (set 0, one binding per buffer
// or uniform parameter), pipeline layout with the push-constant range, and the pipeline.
#pragma once

#include <cstdint>
#include <memory>

#include <volk.h>

#include "sprig/dsl/ir.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_disk_cache.hpp"
#include "vk_driver_cache.hpp"

namespace sprig::vk {

class DeviceContext;

struct Pipeline {
  Pipeline(VkDevice device, const VolkDeviceTable& vk) : device(device), vk(vk) {}
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  VkDevice device;
  const VolkDeviceTable& vk;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::uint32_t storage_buffers = 0;      // descriptors per set, by type
  std::uint32_t uniform_buffers = 0;
  std::uint32_t push_constant_bytes = 0;  // the range: push_constant_size rounded up to 4
  KernelTimes times;                      // with the driver's statistics of the pipeline
};

// Checks the kernel against the device, obtains SPIR-V from the disk cache, or else from
// Options::spirv_compiler (or sprig::compiler::compile, then stored in the disk cache), and
// creates the pipeline through the driver's cache. Errors name the kernel and its line.
// Modules with source-level debug info skip the disk cache: they hold the text of the
// user's source files, which no key covers, and emitting them costs little beside the
// driver's compilation.
std::shared_ptr<const Pipeline> build_pipeline(DeviceContext& context, const ir::Kernel& kernel,
                                               DriverPipelineCache& driver_cache, const DiskCache* disk);

}  // namespace sprig::vk
