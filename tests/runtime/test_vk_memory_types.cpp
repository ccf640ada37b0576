// Memory type choice and the order in which the allocator tries placements, on memory
// properties written out by hand: a discrete GPU's (device memory, a BAR window, host
// memory) and an integrated one's (one type for everything).
#include <catch2/catch.hpp>

#include "vk_memory_types.hpp"

using namespace sprig::vk;

namespace {

VkPhysicalDeviceMemoryProperties discrete_gpu() {
  VkPhysicalDeviceMemoryProperties p{};
  p.memoryHeapCount = 3;
  p.memoryHeaps[0] = {VkDeviceSize(80) << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  p.memoryHeaps[1] = {VkDeviceSize(64) << 30, 0};
  p.memoryHeaps[2] = {VkDeviceSize(256) << 20, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  p.memoryTypeCount = 4;
  p.memoryTypes[0] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 1};
  p.memoryTypes[1] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
  p.memoryTypes[2] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                          VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                      1};
  p.memoryTypes[3] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                      2};
  return p;
}

}  // namespace

TEST_CASE("memory types are ranked per use on a discrete GPU") {
  VkPhysicalDeviceMemoryProperties p = discrete_gpu();
  CHECK(memory_type_candidates(p, 0xF, MemoryUse::DeviceLocal) == std::vector<std::uint32_t>{1, 3, 0, 2});
  CHECK(memory_type_candidates(p, 0xF, MemoryUse::HostVisible) == std::vector<std::uint32_t>{3, 0, 2});
  CHECK(memory_type_candidates(p, 0xF, MemoryUse::Staging) == std::vector<std::uint32_t>{2, 0, 3});
  CHECK(memory_type_candidates(p, 0x2, MemoryUse::Staging).empty());  // only device memory allowed
}

TEST_CASE("a shared allocation tries every block of a better type, and a new one, before a worse type") {
  // Blocks: 0 host memory (staging), 1 device memory, 2 dedicated device memory, 3 host memory.
  std::vector<std::optional<std::uint32_t>> blocks{0u, 1u, std::nullopt, 0u};
  auto order = placement_order({1, 3, 0}, blocks, true);
  REQUIRE(order.size() == 6);
  CHECK((order[0].memory_type == 1 && order[0].block == 1u));
  CHECK((order[1].memory_type == 1 && !order[1].block));  // a new device block before any host block
  CHECK((order[2].memory_type == 3 && !order[2].block));
  CHECK((order[3].memory_type == 0 && order[3].block == 0u));
  CHECK((order[4].memory_type == 0 && order[4].block == 3u));
  CHECK((order[5].memory_type == 0 && !order[5].block));
}

TEST_CASE("an allocation of its own only ever opens new blocks, best type first") {
  std::vector<std::optional<std::uint32_t>> blocks{0u, 1u};
  auto order = placement_order({1, 0}, blocks, false);
  REQUIRE(order.size() == 2);
  CHECK((order[0].memory_type == 1 && !order[0].block));
  CHECK((order[1].memory_type == 0 && !order[1].block));
}

TEST_CASE("a device-local buffer in host memory has spilled, and other uses never spill") {
  VkPhysicalDeviceMemoryProperties p = discrete_gpu();
  auto flags = [&](std::uint32_t type) { return p.memoryTypes[type].propertyFlags; };
  CHECK_FALSE(spills(flags(1), MemoryUse::DeviceLocal));
  CHECK_FALSE(spills(flags(3), MemoryUse::DeviceLocal));  // the BAR window is device memory
  CHECK(spills(flags(0), MemoryUse::DeviceLocal));
  CHECK(spills(flags(2), MemoryUse::DeviceLocal));
  for (std::uint32_t type = 0; type < p.memoryTypeCount; ++type) {
    CHECK_FALSE(spills(flags(type), MemoryUse::HostVisible));
    CHECK_FALSE(spills(flags(type), MemoryUse::Staging));
  }
}
