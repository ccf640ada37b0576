// Everything that belongs to one open Vulkan device: the VkDevice and its queue, the
// memory sub-allocator, the staging transfers, the pipeline cache and the command
// recording resources that finished sequences hand back. Buffers and
// sequences hold a shared_ptr to it, so it outlives every object created from it.
#pragma once

#include <memory>
#include <mutex>
#include <string_view>

#include <volk.h>

#include "sprig/runtime/vulkan.hpp"
#include "vk_instance.hpp"
#include "vk_memory.hpp"
#include "vk_physical_device.hpp"

namespace sprig::vk {

class PipelineCache;
class RecordingPool;
class StagingTransfers;

class DeviceContext {
 public:
  static std::shared_ptr<DeviceContext> create(std::shared_ptr<Instance> instance, PhysicalDevice physical,
                                               const Options& options);
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  VkDevice device() const { return device_; }
  const VolkDeviceTable& vk() const { return vk_; }
  const DeviceInfo& info() const { return physical_.info; }
  const DeviceCapabilities& caps() const { return physical_.caps; }
  const Options& options() const { return options_; }
  Instance& instance() const { return *instance_; }
  MemoryAllocator& memory() const { return *memory_; }
  PipelineCache& pipelines() const { return *pipelines_; }
  RecordingPool& recordings() const { return *recordings_; }
  // Created on first use: devices used only through host-visible buffers never pay for it.
  StagingTransfers& staging();

  // vkQueueSubmit of one command buffer, under the queue's mutex (the queue is shared by
  // every thread). `what` names the operation for errors.
  void submit(VkCommandBuffer commands, VkFence fence, std::string_view what);
  // Throws DeviceError when the validation layer reported messages not yet thrown.
  void throw_if_validation_messages(std::string_view during);
  // Names an object for validation messages and debuggers (only when validation is on).
  void name_object(VkObjectType type, std::uint64_t handle, const std::string& name) const;

 private:
  DeviceContext() = default;

  std::shared_ptr<Instance> instance_;  // destroyed after the device
  PhysicalDevice physical_;
  Options options_;
  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex queue_mutex_;
  std::unique_ptr<MemoryAllocator> memory_;
  std::unique_ptr<PipelineCache> pipelines_;
  std::unique_ptr<RecordingPool> recordings_;
  std::mutex staging_mutex_;
  std::unique_ptr<StagingTransfers> staging_;
};

}  // namespace sprig::vk
