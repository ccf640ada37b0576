// The Vulkan instance a device context is created from, with the validation layer and its
// message log when validation is on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <volk.h>

#include "vk_validation.hpp"

namespace sprig::vk {

class Instance {
 public:
  // A Vulkan 1.2+ instance. With `validation`, VK_LAYER_KHRONOS_validation is enabled and
  // warnings/errors go to log(); throws DeviceError if the layer is not installed.
  static std::shared_ptr<Instance> create(bool validation);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  std::uint32_t api_version() const { return api_version_; }
  bool validation() const { return messenger_ != VK_NULL_HANDLE; }
  ValidationLog& log() { return *log_; }

  std::vector<VkPhysicalDevice> physical_devices() const;

  // Names an object in validation messages and debuggers; a no-op without debug utils.
  void set_object_name(VkDevice device, VkObjectType type, std::uint64_t handle, const std::string& name) const;

 private:
  Instance() = default;

  VkInstance instance_ = VK_NULL_HANDLE;
  std::uint32_t api_version_ = 0;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
  PFN_vkSetDebugUtilsObjectNameEXT set_object_name_ = nullptr;
  // Owned separately so its address (the messenger's user data) never changes.
  std::unique_ptr<ValidationLog> log_ = std::make_unique<ValidationLog>();
};

}  // namespace sprig::vk
