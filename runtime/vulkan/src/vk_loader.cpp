#include "vk_loader.hpp"

#include <mutex>

#include "sprig/dsl/error.hpp"

namespace sprig::vk {

void ensure_loader() {
  static std::once_flag once;
  static VkResult result = VK_ERROR_INITIALIZATION_FAILED;
  std::call_once(once, [] { result = volkInitialize(); });
  if (result != VK_SUCCESS) throw DeviceError("no Vulkan loader found (install libvulkan1)");
}

void load_instance_entry_points(VkInstance instance) {
  static std::once_flag once;
  std::call_once(once, [instance] { volkLoadInstanceOnly(instance); });
}

}  // namespace sprig::vk
