#include "vk_context.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>

#include "vk_fault_seam.hpp"
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
  self->diagnostics_ = resolve_diagnostics(options, self->physical_.info, self->physical_.caps);
  if (!self->diagnostics_.warning.empty()) self->warn(self->diagnostics_.warning);
  self->device_ = create_logical_device(self->physical_, self->diagnostics_.pipeline_statistics);
  // A per-device table: several devices (or instances) may be open at once.
  volkLoadDeviceTable(&self->vk_, self->device_);
  self->vk_.vkGetDeviceQueue(self->device_, self->physical_.caps.queue_family, 0, &self->queue_);
  self->memory_ = std::make_unique<MemoryAllocator>(self->device_, self->vk_, self->physical_, options.block_bytes,
                                                     options.retained_bytes, options.faults.get());
  self->pipelines_ = std::make_unique<PipelineCache>(*self);
  self->recordings_ = std::make_unique<RecordingPool>(*self);
  return self;
}

DeviceContext::~DeviceContext() {
  if (device_ == VK_NULL_HANDLE) return;
  if (lost()) {
    // A hung GPU may still run work that uses these objects: leave them, and the instance
    // they belong to, to the end of the process rather than risk a crash or a hang.
    (void)staging_.release();
    (void)recordings_.release();
    (void)pipelines_.release();
    (void)memory_.release();
    (void)new std::shared_ptr<Instance>(instance_);
    return;
  }
  // Nothing can be in flight (sequences hold this context and wait for their work), but a
  // transfer that failed half-way may have left work on the queue.
  vk_.vkDeviceWaitIdle(device_);
  staging_.reset();
  recordings_.reset();
  pipelines_.reset();
  memory_.reset();
  vk_.vkDestroyDevice(device_, nullptr);
}

void DeviceContext::warn(const std::string& message) const {
  if (options_.on_warning) {
    options_.on_warning(message);
  } else {
    std::fprintf(stderr, "sprig: warning: %s\n", message.c_str());
  }
}

StagingTransfers& DeviceContext::staging() {
  throw_if_lost();
  std::lock_guard lock(staging_mutex_);
  if (!staging_) staging_ = std::make_unique<StagingTransfers>(*this, options_.staging_bytes);
  return *staging_;
}

void DeviceContext::submit(VkCommandBuffer commands, VkFence fence, std::string_view what) {
  throw_if_lost();
  VkSubmitInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  info.commandBufferCount = 1;
  info.pCommandBuffers = &commands;
  VkResult result = injected_result(FaultSite::QueueSubmit);
  if (result == VK_SUCCESS) {
    std::lock_guard lock(queue_mutex_);
    result = vk_.vkQueueSubmit(queue_, 1, &info, fence);
  }
  check(result, std::string("vkQueueSubmit (") + std::string(what) + ")");
}

VkResult DeviceContext::wait_for(VkFence fence) {
  VkResult injected = injected_result(FaultSite::FenceWait);
  if (injected != VK_SUCCESS) return settle_then(fence, injected);
  auto timeout = options_.wait_timeout.count();
  std::uint64_t nanoseconds = timeout <= 0 ? std::numeric_limits<std::uint64_t>::max()
                                           : std::uint64_t(timeout) * 1'000'000;  // < 584 years
  return vk_.vkWaitForFences(device_, 1, &fence, VK_TRUE, nanoseconds);
}

VkResult DeviceContext::fence_status(VkFence fence) {
  VkResult injected = injected_result(FaultSite::FenceWait);
  return injected != VK_SUCCESS ? settle_then(fence, injected) : vk_.vkGetFenceStatus(device_, fence);
}

// An injected failure of a fence wait leaves real work on the queue: the driver still runs
// it after the device is declared lost, whose objects are then left alone. On lavapipe that
// work racing the process's exit crashed a test after it had passed (once in a CI run; not
// reproduced in 260 runs here). So the real fence is waited for first, for a bounded time.
VkResult DeviceContext::settle_then(VkFence fence, VkResult injected) {
  constexpr std::uint64_t ten_seconds = 10'000'000'000ull;
  (void)vk_.vkWaitForFences(device_, 1, &fence, VK_TRUE, ten_seconds);
  return injected;
}

VkResult DeviceContext::injected_result(FaultSite site) const {
  return vk::injected_result(options_.faults.get(), site);
}

void DeviceContext::check(VkResult result, std::string_view what) {
  if (result == VK_SUCCESS) return;
  if (result == VK_ERROR_DEVICE_LOST) lose(std::string(what) + " reported VK_ERROR_DEVICE_LOST");
  vk::check(result, what);
}

void DeviceContext::throw_if_lost() const {
  if (!lost()) return;
  std::lock_guard lock(lost_mutex_);
  throw DeviceLost(lost_message_);
}

void DeviceContext::lose(const std::string& reason) {
  {
    std::lock_guard lock(lost_mutex_);
    if (!lost_.load(std::memory_order_relaxed)) {
      lost_message_ = "the Vulkan device " + info().name + " is lost: " + reason +
                      "; it accepts no more work (open a new vk::Device)";
      lost_.store(true, std::memory_order_release);
    }
  }
  throw_if_lost();
  std::abort();  // unreachable: throw_if_lost() throws once lost_ is set
}

std::string DeviceContext::timeout_text() const {
  auto ms = options_.wait_timeout.count();
  char text[32];
  if (ms % 60000 == 0) std::snprintf(text, sizeof text, "%lld min", static_cast<long long>(ms / 60000));
  else std::snprintf(text, sizeof text, "%g s", double(ms) / 1000);
  return text;
}

void DeviceContext::throw_if_validation_messages(std::string_view during) {
  if (instance_->validation()) instance_->log().throw_if_new(during);
}

void DeviceContext::name_object(VkObjectType type, std::uint64_t handle, const std::string& name) const {
  instance_->set_object_name(device_, type, handle, name);
}

}  // namespace sprig::vk
