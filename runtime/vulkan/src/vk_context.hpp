// Everything that belongs to one open Vulkan device: the VkDevice and its queue, the
// memory sub-allocator, the staging transfers, the pipeline cache and the command
// recording resources that finished sequences hand back. Buffers and
// sequences hold a shared_ptr to it, so it outlives every object created from it.
// It also keeps the device's lost state: after VK_ERROR_DEVICE_LOST or a wait past
// Options::wait_timeout, every operation throws DeviceLost, and destroying the context
// leaves the Vulkan objects alone (a hung GPU may still use them; destroying them could
// crash or hang the driver), so that dropping a lost device never blocks.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <volk.h>

#include "sprig/runtime/vulkan.hpp"
#include "vk_diagnostics.hpp"
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
  // The debugging and profiling aids this device applies.
  const Diagnostics& diagnostics() const { return diagnostics_; }
  Instance& instance() const { return *instance_; }
  MemoryAllocator& memory() const { return *memory_; }
  PipelineCache& pipelines() const { return *pipelines_; }
  RecordingPool& recordings() const { return *recordings_; }
  // Created on first use: devices used only through host-visible buffers never pay for it.
  StagingTransfers& staging();

  // vkQueueSubmit of one command buffer, under the queue's mutex (the queue is shared by
  // every thread). `what` names the operation for errors.
  void submit(VkCommandBuffer commands, VkFence fence, std::string_view what);
  // vkWaitForFences for at most Options::wait_timeout: VK_SUCCESS, VK_TIMEOUT or an error.
  VkResult wait_for(VkFence fence);
  // vkGetFenceStatus: VK_SUCCESS, VK_NOT_READY or an error.
  VkResult fence_status(VkFence fence);
  // What Options::faults makes the next call at `site` return; VK_SUCCESS: make the call.
  VkResult injected_result(FaultSite site) const;

  // Like vk::check, but VK_ERROR_DEVICE_LOST loses the device (and throws DeviceLost).
  void check(VkResult result, std::string_view what);
  // Throws DeviceLost if the device was lost; `operation` prefixes nothing, the message is
  // the one the loss was first reported with.
  void throw_if_lost() const;
  bool lost() const { return lost_.load(std::memory_order_acquire); }
  // Marks the device lost (the first reason is kept) and throws DeviceLost.
  [[noreturn]] void lose(const std::string& reason);
  // "0.5 s", "10 min": Options::wait_timeout as people read it.
  std::string timeout_text() const;
  // Throws DeviceError when the validation layer reported messages not yet thrown.
  void throw_if_validation_messages(std::string_view during);
  // Reports something the user should know that is not an error: Options::on_warning, or
  // standard error.
  void warn(const std::string& message) const;
  // Names an object for validation messages and debuggers (only when validation is on).
  void name_object(VkObjectType type, std::uint64_t handle, const std::string& name) const;

 private:
  // Waits (boundedly) for `fence` before an injected fence failure is returned.
  VkResult settle_then(VkFence fence, VkResult injected);

  DeviceContext() = default;

  std::shared_ptr<Instance> instance_;  // destroyed after the device
  PhysicalDevice physical_;
  Options options_;
  Diagnostics diagnostics_;
  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex queue_mutex_;
  std::unique_ptr<MemoryAllocator> memory_;
  std::unique_ptr<PipelineCache> pipelines_;
  std::unique_ptr<RecordingPool> recordings_;
  std::mutex staging_mutex_;
  std::unique_ptr<StagingTransfers> staging_;
  std::atomic<bool> lost_{false};
  mutable std::mutex lost_mutex_;
  std::string lost_message_;
};

}  // namespace sprig::vk
