// A command pool with one primary command buffer and a fence: what one submission at a
// time records into (a sequence's recording resources, a staging transfer's slot).
#pragma once

#include <string>

#include <volk.h>

namespace sprig::vk {

class DeviceContext;

class CommandSlot {
 public:
  // `user` names the slot's owner in errors ("sequence", "staging").
  CommandSlot(const DeviceContext& context, std::string user);
  ~CommandSlot();
  CommandSlot(const CommandSlot&) = delete;
  CommandSlot& operator=(const CommandSlot&) = delete;

  VkCommandBuffer commands() const { return commands_; }
  VkFence fence() const { return fence_; }

  // Frees what was recorded and unsignals the fence; nothing recorded may be pending.
  void reset();
  // Starts recording a command buffer that is submitted once.
  void begin();

 private:
  void release() noexcept;
  void checked(VkResult result, const char* call) const;

  const DeviceContext& context_;
  std::string user_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace sprig::vk
