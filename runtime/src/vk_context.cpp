#include "vk_context.hpp"

#include "vk_logical_device.hpp"
#include "vk_pipeline_cache.hpp"
#include "vk_recording_pool.hpp"
#include "vk_result.hpp"
#include "vk_staging.hpp"

namespace sprig::vk {

std::shared_ptr<DeviceContext> DeviceContext::create(std::shared_ptr<Instance> instance, PhysicalDevice physical,
                                                     const Options& options) {
  std::shared_ptr<DeviceContext> self(new DeviceContext());
  self->instance_ = std::move(instance);
  self->physical_ = std::move(physical);
  self->options_ = options;
  self->device_ = create_logical_device(self->physical_);
  // A per-device table: several devices (or instances) may be open at once.
  volkLoadDeviceTable(&self->vk_, self->device_);
  self->vk_.vkGetDeviceQueue(self->device_, self->physical_.caps.queue_family, 0, &self->queue_);
  self->memory_ = std::make_unique<MemoryAllocator>(self->device_, self->vk_, self->physical_, options.block_bytes,
                                                     options.retained_bytes);
  self->pipelines_ = std::make_unique<PipelineCache>(*self);
  self->recordings_ = std::make_unique<RecordingPool>(*self);
  return self;
}

DeviceContext::~DeviceContext() {
  if (device_ == VK_NULL_HANDLE) return;
  // Nothing can be in flight (sequences hold this context), but a transfer that failed
  // half-way may have left work on the queue.
  vk_.vkDeviceWaitIdle(device_);
  staging_.reset();
  recordings_.reset();
  pipelines_.reset();
  memory_.reset();
  vk_.vkDestroyDevice(device_, nullptr);
}

StagingTransfers& DeviceContext::staging() {
  std::lock_guard lock(staging_mutex_);
  if (!staging_) staging_ = std::make_unique<StagingTransfers>(*this, options_.staging_bytes);
  return *staging_;
}

void DeviceContext::submit(VkCommandBuffer commands, VkFence fence, std::string_view what) {
  VkSubmitInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &commands;
  VkResult result;
  {
    std::lock_guard lock(queue_mutex_);
    result = vk_.vkQueueSubmit(queue_, 1, &info, fence);
  }
  check(result, std::string("vkQueueSubmit (") + std::string(what) + ")");
}

void DeviceContext::throw_if_validation_messages(std::string_view during) {
  if (instance_->validation()) instance_->log().throw_if_new(during);
}

void DeviceContext::name_object(VkObjectType type, std::uint64_t handle, const std::string& name) const {
  instance_->set_object_name(device_, type, handle, name);
}

}  // namespace sprig::vk
