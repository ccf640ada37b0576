#include "vk_recording_pool.hpp"

#include "vk_context.hpp"
#include "vk_result.hpp"

namespace sprig::vk {

RecordingResources::RecordingResources(const DeviceContext& context)
    : context_(context),
      descriptors_(context.device(), context.vk()),
      timestamps_(context.device(), context.vk(), context.options().timestamps, context.caps().timestamp_valid_bits,
                  context.info().timestamp_period_ns) {
  const VolkDeviceTable& vk = context.vk();
  try {
    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool.queueFamilyIndex = context.caps().queue_family;
    check(vk.vkCreateCommandPool(context.device(), &pool, nullptr, &pool_), "vkCreateCommandPool (sequence)");
    VkCommandBufferAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate.commandPool = pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    check(vk.vkAllocateCommandBuffers(context.device(), &allocate, &commands_), "vkAllocateCommandBuffers (sequence)");
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check(vk.vkCreateFence(context.device(), &fence, nullptr, &fence_), "vkCreateFence (sequence)");
  } catch (...) {
    release();
    throw;
  }
}

RecordingResources::~RecordingResources() { release(); }

void RecordingResources::release() noexcept {
  const VolkDeviceTable& vk = context_.vk();
  if (fence_ != VK_NULL_HANDLE) vk.vkDestroyFence(context_.device(), fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyCommandPool(context_.device(), pool_, nullptr);  // frees commands_
  fence_ = VK_NULL_HANDLE;
  pool_ = VK_NULL_HANDLE;
  commands_ = VK_NULL_HANDLE;
}

void RecordingResources::reset() {
  const VolkDeviceTable& vk = context_.vk();
  check(vk.vkResetCommandPool(context_.device(), pool_, 0), "vkResetCommandPool (sequence)");
  check(vk.vkResetFences(context_.device(), 1, &fence_), "vkResetFences (sequence)");
  descriptors_.reset();
  timestamps_.reset();
}

std::unique_ptr<RecordingResources> RecordingPool::take() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<RecordingResources> reused = std::move(free_.back());
      free_.pop_back();
      return reused;
    }
  }
  return std::make_unique<RecordingResources>(context_);
}

void RecordingPool::give_back(std::unique_ptr<RecordingResources> used) noexcept {
  try {
    used->reset();
  } catch (...) {
    return;  // destroyed: a set that cannot be reset is not worth keeping
  }
  std::lock_guard lock(mutex_);
  if (free_.size() < kKept) free_.push_back(std::move(used));
}

}  // namespace sprig::vk
