#include "vk_memory_types.hpp"

#include <algorithm>

namespace sprig::vk {

namespace {

constexpr VkMemoryPropertyFlags kDeviceLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
constexpr VkMemoryPropertyFlags kHostCoherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkMemoryPropertyFlags kCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
// Types sprig never wants: lazily allocated (images only) and protected memory.
constexpr VkMemoryPropertyFlags kExcluded = VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT | VK_MEMORY_PROPERTY_PROTECTED_BIT;

// Lower is better; negative means unsuitable.
int score(VkMemoryPropertyFlags flags, MemoryUse use) {
  if ((flags & kExcluded) != 0) return -1;
  bool device_local = (flags & kDeviceLocal) != 0;
  bool host_coherent = (flags & kHostCoherent) == kHostCoherent;
  bool host_visible = (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0;
  bool cached = (flags & kCached) != 0;
  switch (use) {
    case MemoryUse::DeviceLocal:
      if (device_local && !host_visible) return 0;
      return device_local ? 1 : 2;
    case MemoryUse::HostVisible:
      if (!host_coherent) return -1;
      return device_local ? 0 : 1;
    case MemoryUse::Staging:
      if (!host_coherent) return -1;
      return cached ? 0 : 1;
    case MemoryUse::Host:
      // System memory, not the device's own (which is what the budget keeps free), nor a
      // BAR window into it; uncached (write-combined) types before cached ones.
      if (!host_coherent) return -1;
      return device_local ? 2 : cached ? 1 : 0;
  }
  return -1;
}

}  // namespace

const char* memory_use_name(MemoryUse use) {
  switch (use) {
    case MemoryUse::DeviceLocal: return "device-local";
    case MemoryUse::HostVisible: return "host-visible";
    case MemoryUse::Staging: return "staging";
    case MemoryUse::Host: return "host";
  }
  return "?";
}

std::vector<std::uint32_t> memory_type_candidates(const VkPhysicalDeviceMemoryProperties& properties,
                                                  std::uint32_t type_bits, MemoryUse use) {
  std::vector<std::uint32_t> candidates;
  for (std::uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) != 0 && score(properties.memoryTypes[i].propertyFlags, use) >= 0) candidates.push_back(i);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](std::uint32_t a, std::uint32_t b) {
    return score(properties.memoryTypes[a].propertyFlags, use) < score(properties.memoryTypes[b].propertyFlags, use);
  });
  return candidates;
}

bool spills(VkMemoryPropertyFlags flags, MemoryUse use) {
  return use == MemoryUse::DeviceLocal && (flags & kDeviceLocal) == 0;
}

std::vector<Placement> placement_order(const std::vector<std::uint32_t>& candidates,
                                       const std::vector<std::optional<std::uint32_t>>& block_types, bool shared) {
  std::vector<Placement> order;
  for (std::uint32_t type : candidates) {
    if (shared) {
      for (std::size_t b = 0; b < block_types.size(); ++b)
        if (block_types[b] == type) order.push_back({type, b});
    }
    order.push_back({type, std::nullopt});
  }
  return order;
}

}  // namespace sprig::vk
