#include "vk_memory.hpp"

#include <algorithm>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/out_of_memory.hpp"
#include "vk_fault_seam.hpp"
#include "vk_result.hpp"

namespace sprig::vk {

struct MemoryBlock {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  std::uint32_t memory_type = 0;
  bool dedicated = false;
  std::byte* mapped = nullptr;
  std::map<VkDeviceSize, VkDeviceSize> free_ranges;  // offset -> size, never adjacent
  VkDeviceSize used = 0;
  std::size_t allocations = 0;
};

namespace {

// Every buffer may be bound as storage or uniform and copied from or to.
constexpr VkBufferUsageFlags kBufferUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

VkDeviceSize round_up(VkDeviceSize value, VkDeviceSize alignment) { return (value + alignment - 1) / alignment * alignment; }

VkBufferCreateInfo buffer_info(VkDeviceSize size) {
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = kBufferUsage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  return info;
}

bool out_of_memory(VkResult r) { return r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY; }

}  // namespace

MemoryAllocator::MemoryAllocator(VkDevice device, const VolkDeviceTable& vk, const PhysicalDevice& physical,
                                 VkDeviceSize block_bytes, VkDeviceSize retained_bytes, FaultInjector* faults)
    : device_(device),
      physical_(physical.handle),
      has_memory_budget_(physical.caps.memory_budget),
      vk_(vk),
      retained_bytes_(retained_bytes),
      faults_(faults) {
  vkGetPhysicalDeviceMemoryProperties(physical.handle, &properties_);
  const DeviceCapabilities& caps = physical.caps;
  // All these limits are powers of two, so their maximum is a multiple of each.
  alignment_ = std::max<VkDeviceSize>({16, caps.min_storage_buffer_offset_alignment,
                                       caps.min_uniform_buffer_offset_alignment, caps.non_coherent_atom_size});
  max_allocation_ = caps.max_memory_allocation_size != 0 ? caps.max_memory_allocation_size : ~VkDeviceSize(0);
  block_bytes_ = std::min(round_up(std::max<VkDeviceSize>(block_bytes, alignment_), alignment_), max_allocation_);

  VkBufferCreateInfo probe_info = buffer_info(alignment_);
  VkBuffer probe = VK_NULL_HANDLE;
  check(vk_.vkCreateBuffer(device_, &probe_info, nullptr, &probe), "vkCreateBuffer");
  VkMemoryRequirements requirements{};
  vk_.vkGetBufferMemoryRequirements(device_, probe, &requirements);
  vk_.vkDestroyBuffer(device_, probe, nullptr);
  buffer_type_bits_ = requirements.memoryTypeBits;
}

MemoryAllocator::~MemoryAllocator() {
  for (auto& block : blocks_) destroy_block(*block);
}

std::unique_ptr<MemoryBlock> MemoryAllocator::create_block(VkDeviceSize size, std::uint32_t memory_type, bool dedicated,
                                                           VkResult& result) {
  auto block = std::make_unique<MemoryBlock>();
  block->size = size;
  block->memory_type = memory_type;
  block->dedicated = dedicated;
  VkBufferCreateInfo info = buffer_info(size);
  result = injected_result(faults_, FaultSite::BufferCreation);
  if (result == VK_SUCCESS) result = vk_.vkCreateBuffer(device_, &info, nullptr, &block->buffer);
  if (result != VK_SUCCESS) return nullptr;
  VkMemoryRequirements requirements{};
  vk_.vkGetBufferMemoryRequirements(device_, block->buffer, &requirements);

  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = memory_type;
  // Dedicated allocations let drivers place big buffers optimally.
  VkMemoryDedicatedAllocateInfo dedicated_info{};
  dedicated_info.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO;
  dedicated_info.buffer = block->buffer;
  if (dedicated) allocate.pNext = &dedicated_info;
  result = injected_result(faults_, FaultSite::MemoryAllocation);
  if (result == VK_SUCCESS) result = vk_.vkAllocateMemory(device_, &allocate, nullptr, &block->memory);
  if (result == VK_SUCCESS) result = vk_.vkBindBufferMemory(device_, block->buffer, block->memory, 0);
  if (result == VK_SUCCESS && (properties_.memoryTypes[memory_type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
    void* pointer = nullptr;
    result = injected_result(faults_, FaultSite::MemoryMapping);
    if (result == VK_SUCCESS) result = vk_.vkMapMemory(device_, block->memory, 0, VK_WHOLE_SIZE, 0, &pointer);
    block->mapped = static_cast<std::byte*>(pointer);
  }
  if (result != VK_SUCCESS) {
    destroy_block(*block);
    return nullptr;
  }
  block->free_ranges.emplace(0, size);
  return block;
}

void MemoryAllocator::destroy_block(MemoryBlock& block) noexcept {
  if (block.mapped != nullptr) vk_.vkUnmapMemory(device_, block.memory);
  if (block.buffer != VK_NULL_HANDLE) vk_.vkDestroyBuffer(device_, block.buffer, nullptr);
  if (block.memory != VK_NULL_HANDLE) vk_.vkFreeMemory(device_, block.memory, nullptr);
  block.mapped = nullptr;
  block.buffer = VK_NULL_HANDLE;
  block.memory = VK_NULL_HANDLE;
}

// Best fit: the smallest free range that holds `size`, which keeps large ranges whole.
bool MemoryAllocator::suballocate(MemoryBlock& block, VkDeviceSize size, Allocation& out) {
  auto best = block.free_ranges.end();
  for (auto it = block.free_ranges.begin(); it != block.free_ranges.end(); ++it) {
    if (it->second >= size && (best == block.free_ranges.end() || it->second < best->second)) best = it;
  }
  if (best == block.free_ranges.end()) return false;
  VkDeviceSize offset = best->first, remaining = best->second - size;
  block.free_ranges.erase(best);
  if (remaining > 0) block.free_ranges.emplace(offset + size, remaining);
  block.used += size;
  ++block.allocations;
  out = Allocation{&block, block.buffer, offset, size, block.mapped ? block.mapped + offset : nullptr};
  return true;
}

Allocation MemoryAllocator::allocate(VkDeviceSize bytes, MemoryUse use) {
  VkDeviceSize size = round_up(std::max<VkDeviceSize>(bytes, 1), alignment_);
  if (size > max_allocation_) {
    throw DeviceError("cannot allocate a buffer of " + std::to_string(bytes) +
                      " bytes: the device allows at most " + std::to_string(max_allocation_) +
                      " bytes per allocation (maxMemoryAllocationSize)");
  }
  std::vector<std::uint32_t> types = memory_type_candidates(properties_, buffer_type_bits_, use);
  if (types.empty()) throw DeviceError(std::string("the device has no memory type for ") + memory_use_name(use) + " buffers");
  Allocation out = place(size, bytes, use, types);
  out.spilled = spills(properties_.memoryTypes[out.block->memory_type].propertyFlags, use);
  if (out.spilled) spilled_bytes_ += out.size;
  return out;
}

// The first place of placement_order that takes `size` bytes.
Allocation MemoryAllocator::place(VkDeviceSize size, VkDeviceSize bytes, MemoryUse use,
                                  const std::vector<std::uint32_t>& types) {
  bool dedicated = size > block_bytes_;

  std::lock_guard lock(mutex_);
  Allocation out;
  if (dedicated) {
    if (MemoryBlock* kept = retained_block(size, types)) {
      suballocate(*kept, size, out);
      return out;
    }
  }
  VkResult result = VK_SUCCESS;
  std::string refusal;  // why the driver's budget ruled a heap out
  for (int attempt = 0; attempt < 2; ++attempt) {
    // Cached empty blocks are freed before a refused type gives way to a worse one: in
    // host memory a device-local buffer works many times slower.
    const bool empty_blocks_to_free =
        attempt == 0 && std::any_of(blocks_.begin(), blocks_.end(), [](const auto& b) { return b->allocations == 0; });
    std::vector<std::optional<std::uint32_t>> block_types;
    for (const auto& block : blocks_) block_types.push_back(block->dedicated ? std::nullopt : std::optional(block->memory_type));
    for (const Placement& place : placement_order(types, block_types, !dedicated)) {
      if (place.block) {
        if (suballocate(*blocks_[*place.block], size, out)) return out;
        continue;
      }
      VkDeviceSize heap_size = properties_.memoryHeaps[properties_.memoryTypes[place.memory_type].heapIndex].size;
      // A heap smaller than a block (a small BAR window, say) still takes a buffer of its own.
      bool own_block = dedicated || heap_size < block_bytes_;
      if (heap_size < size) continue;
      if (std::string over = over_driver_budget(own_block ? size : block_bytes_, place.memory_type, bytes); !over.empty()) {
        refusal = over;  // another memory type may still take it
        if (empty_blocks_to_free) break;
        continue;
      }
      std::unique_ptr<MemoryBlock> block = create_block(own_block ? size : block_bytes_, place.memory_type, own_block, result);
      if (block) {
        suballocate(*block, size, out);
        blocks_.push_back(std::move(block));
        return out;
      }
      if (!out_of_memory(result)) {
        check(result, "allocating a memory block of " + std::to_string(own_block ? size : block_bytes_) + " bytes for a " +
                          std::to_string(bytes) + "-byte " + memory_use_name(use) + " buffer");
      }
      if (empty_blocks_to_free) break;
    }
    free_empty_blocks();  // cached empty blocks may be what stands in the way
  }
  if (!refusal.empty()) throw OutOfDeviceMemory(refusal);
  throw OutOfDeviceMemory("out of memory allocating " + std::to_string(bytes) + " bytes of " + memory_use_name(use) +
                    " memory (" + held_description() + "): " + result_name(result));
}

std::string MemoryAllocator::held_description() const {
  VkDeviceSize reserved = 0, used = 0;
  for (const auto& block : blocks_) reserved += block->size, used += block->used;
  return "the device's sprig buffers hold " + std::to_string(used) + " of " + std::to_string(reserved) +
         " bytes reserved in " + std::to_string(blocks_.size()) + " blocks";
}

void MemoryAllocator::release(const Allocation& allocation) noexcept {
  if (allocation.block == nullptr) return;
  if (allocation.spilled) spilled_bytes_ -= allocation.size;
  std::lock_guard lock(mutex_);
  MemoryBlock& block = *allocation.block;
  block.used -= allocation.size;
  --block.allocations;
  // Insert, then merge with the neighbours so free space never fragments needlessly.
  auto it = block.free_ranges.emplace(allocation.offset, allocation.size).first;
  if (auto next = std::next(it); next != block.free_ranges.end() && it->first + it->second == next->first) {
    it->second += next->second;
    block.free_ranges.erase(next);
  }
  if (it != block.free_ranges.begin()) {
    auto previous = std::prev(it);
    if (previous->first + previous->second == it->first) {
      previous->second += it->second;
      block.free_ranges.erase(it);
    }
  }
  if (block.allocations > 0) return;
  // One empty shared block per type always stays: it absorbs allocate/free churn. Beyond
  // it, empty blocks stay while they total at most the retained bytes (this one counted).
  bool first_empty_of_type = !block.dedicated && std::none_of(blocks_.begin(), blocks_.end(), [&](const auto& other) {
    return other.get() != &block && !other->dedicated && other->allocations == 0 && other->memory_type == block.memory_type;
  });
  if (first_empty_of_type || retained_total() <= retained_bytes_) return;
  auto owner = std::find_if(blocks_.begin(), blocks_.end(), [&](const auto& b) { return b.get() == &block; });
  destroy_block(block);
  blocks_.erase(owner);
}

// An empty dedicated block of one of `types` (earlier types first) that holds `size` bytes
// and wastes at most a quarter of it: the best fit.
MemoryBlock* MemoryAllocator::retained_block(VkDeviceSize size, const std::vector<std::uint32_t>& types) {
  for (std::uint32_t type : types) {
    MemoryBlock* best = nullptr;
    for (const auto& block : blocks_) {
      bool fits = block->dedicated && block->allocations == 0 && block->memory_type == type && block->size >= size &&
                  block->size - size <= size / 4;
      if (fits && (best == nullptr || block->size < best->size)) best = block.get();
    }
    if (best) return best;
  }
  return nullptr;
}

VkDeviceSize MemoryAllocator::retained_total() const {
  VkDeviceSize total = 0;
  for (const auto& block : blocks_)
    if (block->allocations == 0) total += block->size;
  return total;
}

void MemoryAllocator::free_empty_blocks() {
  std::erase_if(blocks_, [this](std::unique_ptr<MemoryBlock>& block) {
    if (block->allocations > 0) return false;
    destroy_block(*block);
    return true;
  });
}

std::optional<VkPhysicalDeviceMemoryBudgetPropertiesEXT> MemoryAllocator::heap_budgets() const {
  if (!has_memory_budget_) return std::nullopt;
  VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{};
  budget.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
  VkPhysicalDeviceMemoryProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2;
  properties.pNext = &budget;
  vkGetPhysicalDeviceMemoryProperties2(physical_, &properties);
  return budget;
}

std::string MemoryAllocator::over_driver_budget(VkDeviceSize size, std::uint32_t memory_type, VkDeviceSize asked) const {
  std::optional<VkPhysicalDeviceMemoryBudgetPropertiesEXT> budgets = heap_budgets();
  if (!budgets) return {};
  std::uint32_t heap = properties_.memoryTypes[memory_type].heapIndex;
  VkDeviceSize budget = budgets->heapBudget[heap], usage = budgets->heapUsage[heap];
  if (budget == 0 || (usage <= budget && size <= budget - usage)) return {};
  return "out of device memory: a " + byte_size_text(asked) + " buffer needs a new memory block of " +
         byte_size_text(size) + ", but the driver's budget for memory heap " + std::to_string(heap) + " is " +
         byte_size_text(budget) + " and " + byte_size_text(usage) + " of it is in use (" + held_description() +
         "; VK_EXT_memory_budget)";
}

std::optional<DriverMemoryBudget> MemoryAllocator::driver_budget() const {
  std::optional<VkPhysicalDeviceMemoryBudgetPropertiesEXT> budgets = heap_budgets();
  if (!budgets) return std::nullopt;
  for (std::uint32_t heap = 0; heap < properties_.memoryHeapCount; ++heap) {
    if (properties_.memoryHeaps[heap].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      return DriverMemoryBudget{properties_.memoryHeaps[heap].size, budgets->heapBudget[heap], budgets->heapUsage[heap]};
  }
  return std::nullopt;
}

MemoryStats MemoryAllocator::stats() const {
  std::lock_guard lock(mutex_);
  MemoryStats stats;
  for (const auto& block : blocks_) {
    ++stats.blocks;
    stats.dedicated_blocks += block->dedicated ? 1 : 0;
    stats.reserved_bytes += block->size;
    stats.used_bytes += block->used;
    stats.allocations += block->allocations;
  }
  return stats;
}

}  // namespace sprig::vk
