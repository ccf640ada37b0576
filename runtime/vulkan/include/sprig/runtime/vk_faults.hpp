// Failure handling of the Vulkan backend: the error a lost device throws, and a seam that
// makes chosen Vulkan calls fail, so tests can prove that every failure is a clear error
// and never a crash or a hang (docs/reliability.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>

#include "sprig/dsl/error.hpp"

namespace sprig::vk {

// Thrown once a device is lost (VK_ERROR_DEVICE_LOST from any call, or a wait that ran
// past vk::Options::wait_timeout), and by every later operation on that device with the
// same message. Other devices are not affected.
class DeviceLost : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

// The Vulkan calls a FaultInjector can make fail.
enum class FaultSite : std::uint8_t {
  MemoryAllocation,     // vkAllocateMemory (memory blocks, staging included)
  BufferCreation,       // vkCreateBuffer
  MemoryMapping,        // vkMapMemory
  CommandPoolCreation,  // vkCreateCommandPool (sequences and staging slots)
  QueueSubmit,          // vkQueueSubmit
  FenceWait,            // vkWaitForFences and vkGetFenceStatus (the real fence is waited for first)
};
inline constexpr std::size_t fault_site_count = 6;
const char* fault_site_name(FaultSite site);

enum class Fault : std::uint8_t { OutOfDeviceMemory, OutOfHostMemory, DeviceLost };

// For tests: planned failures of Vulkan calls. Share one through vk::Options::faults; the
// device consults it before each call at a FaultSite. Thread-safe.
class FaultInjector {
 public:
  // Calls number `first` .. `first + count - 1` at `site` (1 is the next call from now)
  // fail with `fault` instead of reaching the driver. Replaces the site's earlier plan.
  void fail(FaultSite site, Fault fault, std::uint64_t first = 1, std::uint64_t count = 1);
  // Forgets every plan; calls reach the driver again.
  void clear();
  // Calls seen at `site` so far (failed ones included).
  std::uint64_t calls(FaultSite site) const;
  // Failures injected at `site` so far.
  std::uint64_t injected(FaultSite site) const;

  // The backend's side: counts a call at `site` and says whether it must fail.
  std::optional<Fault> next_call(FaultSite site);

 private:
  struct Plan {
    std::uint64_t calls = 0, injected = 0;
    std::uint64_t first = 0, last = 0;  // call numbers that fail; none when first == 0
    Fault fault = Fault::OutOfDeviceMemory;
  };
  mutable std::mutex mutex_;
  std::array<Plan, fault_site_count> plans_;
};

}  // namespace sprig::vk
