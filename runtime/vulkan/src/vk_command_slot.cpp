#include "vk_command_slot.hpp"

#include "vk_context.hpp"
#include "vk_result.hpp"

namespace sprig::vk {

CommandSlot::CommandSlot(const DeviceContext& context, std::string user) : context_(context), user_(std::move(user)) {
  const VolkDeviceTable& vk = context.vk();
  try {
    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool.queueFamilyIndex = context.caps().queue_family;
    // A pool per command buffer: resetting a whole pool is cheaper than resetting its buffers.
    VkResult created = context.injected_result(FaultSite::CommandPoolCreation);
    if (created == VK_SUCCESS) created = vk.vkCreateCommandPool(context.device(), &pool, nullptr, &pool_);
    checked(created, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate.commandPool = pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    checked(vk.vkAllocateCommandBuffers(context.device(), &allocate, &commands_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    checked(vk.vkCreateFence(context.device(), &fence, nullptr, &fence_), "vkCreateFence");
  } catch (...) {
    release();
    throw;
  }
}

CommandSlot::~CommandSlot() { release(); }

void CommandSlot::checked(VkResult result, const char* call) const {
  // The message is built only on failure: reset() and begin() run for every submission.
  if (result != VK_SUCCESS) check(result, std::string(call) + " (" + user_ + ")");
}

void CommandSlot::release() noexcept {
  const VolkDeviceTable& vk = context_.vk();
  if (fence_ != VK_NULL_HANDLE) vk.vkDestroyFence(context_.device(), fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vk.vkDestroyCommandPool(context_.device(), pool_, nullptr);  // frees commands_
  fence_ = VK_NULL_HANDLE;
  pool_ = VK_NULL_HANDLE;
  commands_ = VK_NULL_HANDLE;
}

void CommandSlot::reset() {
  const VolkDeviceTable& vk = context_.vk();
  checked(vk.vkResetCommandPool(context_.device(), pool_, 0), "vkResetCommandPool");
  checked(vk.vkResetFences(context_.device(), 1, &fence_), "vkResetFences");
}

void CommandSlot::begin() {
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  checked(context_.vk().vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
}

}  // namespace sprig::vk
