// The sub-allocator: buffers are ranges of large VkDeviceMemory blocks (one VkBuffer per
// block), not one vkAllocateMemory each. Free ranges coalesce; every range starts at a
// multiple of one alignment that satisfies storage, uniform and non-coherent-atom rules.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <volk.h>

#include "sprig/runtime/vulkan.hpp"
#include "vk_memory_types.hpp"
#include "vk_physical_device.hpp"

namespace sprig::vk {

struct MemoryBlock;

// A range of a block. `buffer` is the block's VkBuffer; bind it at `offset`.
struct Allocation {
  MemoryBlock* block = nullptr;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize size = 0;        // rounded up to the allocator's alignment
  std::byte* mapped = nullptr;  // host address of `offset`, null unless host-visible
  bool spilled = false;         // a device-local buffer the device's own memory could not hold
};

class MemoryAllocator {
 public:
  // Empty blocks are kept while they total at most `retained_bytes`. `faults` (may be
  // null) makes chosen vkCreateBuffer/vkAllocateMemory/vkMapMemory calls fail.
  MemoryAllocator(VkDevice device, const VolkDeviceTable& vk, const PhysicalDevice& physical, VkDeviceSize block_bytes,
                  VkDeviceSize retained_bytes, FaultInjector* faults = nullptr);
  ~MemoryAllocator();
  MemoryAllocator(const MemoryAllocator&) = delete;
  MemoryAllocator& operator=(const MemoryAllocator&) = delete;

  // Thread-safe. Throws DeviceError when memory is exhausted (naming the size asked for
  // and what the allocator holds) or `bytes` exceeds the device's maxMemoryAllocationSize;
  // the allocator stays usable.
  Allocation allocate(VkDeviceSize bytes, MemoryUse use);
  // Returns the range; keeps one empty shared block per type, and other empty blocks up to
  // the retained bytes (a dedicated one serves the next buffer of about its size).
  void release(const Allocation& allocation) noexcept;

  MemoryStats stats() const;
  // The device-local heap as VK_EXT_memory_budget reports it; empty without the extension.
  std::optional<DriverMemoryBudget> driver_budget() const;
  // Bytes of live device-local buffers placed in host memory because the device's own was
  // full: they work, many times slower (docs/memory.md, "Spilled buffers").
  VkDeviceSize spilled_bytes() const { return spilled_bytes_; }
  VkDeviceSize alignment() const { return alignment_; }

 private:
  Allocation place(VkDeviceSize size, VkDeviceSize bytes, MemoryUse use, const std::vector<std::uint32_t>& types);
  std::unique_ptr<MemoryBlock> create_block(VkDeviceSize size, std::uint32_t memory_type, bool dedicated, VkResult& result);
  void destroy_block(MemoryBlock& block) noexcept;
  bool suballocate(MemoryBlock& block, VkDeviceSize size, Allocation& out);
  MemoryBlock* retained_block(VkDeviceSize size, const std::vector<std::uint32_t>& types);  // under mutex_
  VkDeviceSize retained_total() const;  // under mutex_
  void free_empty_blocks();  // under mutex_; after an allocation failure
  std::string held_description() const;  // under mutex_; for out-of-memory errors
  // Why a new block of `size` bytes in `memory_type` would pass the driver's budget for
  // its heap (empty if it would not): sprig refuses before the driver fails.
  std::string over_driver_budget(VkDeviceSize size, std::uint32_t memory_type, VkDeviceSize asked) const;
  std::optional<VkPhysicalDeviceMemoryBudgetPropertiesEXT> heap_budgets() const;

  VkDevice device_;
  VkPhysicalDevice physical_;
  bool has_memory_budget_;
  const VolkDeviceTable& vk_;
  VkPhysicalDeviceMemoryProperties properties_{};
  VkDeviceSize block_bytes_;
  VkDeviceSize retained_bytes_;
  VkDeviceSize alignment_;
  VkDeviceSize max_allocation_;
  std::uint32_t buffer_type_bits_ = 0;  // the same for every buffer with our usage flags
  FaultInjector* faults_;

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<MemoryBlock>> blocks_;
  std::atomic<VkDeviceSize> spilled_bytes_ = 0;
};

}  // namespace sprig::vk
