#include "vk_fault_seam.hpp"

namespace sprig::vk {

VkResult injected_result(FaultInjector* faults, FaultSite site) {
  if (faults == nullptr) return VK_SUCCESS;
  std::optional<Fault> fault = faults->next_call(site);
  if (!fault) return VK_SUCCESS;
  switch (*fault) {
    case Fault::OutOfDeviceMemory: return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    case Fault::OutOfHostMemory: return VK_ERROR_OUT_OF_HOST_MEMORY;
    case Fault::DeviceLost: return VK_ERROR_DEVICE_LOST;
  }
  return VK_ERROR_UNKNOWN;
}

}  // namespace sprig::vk
