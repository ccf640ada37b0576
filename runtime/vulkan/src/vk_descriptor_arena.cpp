#include "vk_descriptor_arena.hpp"

#include <algorithm>

#include "vk_result.hpp"

namespace sprig::vk {

namespace {

// A pool holds this many sets of typical size; sequences of a few launches use one pool.
constexpr std::uint32_t kSetsPerPool = 32;
constexpr std::uint32_t kStoragePerSet = 8;
constexpr std::uint32_t kUniformPerSet = 2;

}  // namespace

DescriptorArena::~DescriptorArena() {
  for (Pool& pool : pools_) vk_.vkDestroyDescriptorPool(device_, pool.pool, nullptr);
}

void DescriptorArena::open_pool(std::uint32_t storage_buffers, std::uint32_t uniform_buffers) {
  Pool pool;
  pool.sets = pool.sets_left = kSetsPerPool;
  pool.storage = pool.storage_left = std::max(kSetsPerPool * kStoragePerSet, storage_buffers);
  pool.uniform = pool.uniform_left = std::max(kSetsPerPool * kUniformPerSet, uniform_buffers);
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, pool.storage_left},
                                  {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, pool.uniform_left}};
  VkDescriptorPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  info.maxSets = pool.sets_left;
  info.poolSizeCount = 2;
  info.pPoolSizes = sizes;
  check(vk_.vkCreateDescriptorPool(device_, &info, nullptr, &pool.pool), "vkCreateDescriptorPool");
  pools_.push_back(pool);
  current_ = pools_.size() - 1;
}

VkDescriptorSet DescriptorArena::allocate(VkDescriptorSetLayout layout, std::uint32_t storage_buffers,
                                          std::uint32_t uniform_buffers) {
  while (current_ < pools_.size() && !pools_[current_].fits(storage_buffers, uniform_buffers)) ++current_;
  if (current_ == pools_.size()) open_pool(storage_buffers, uniform_buffers);
  Pool& pool = pools_[current_];
  VkDescriptorSetAllocateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  info.descriptorPool = pool.pool;
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  check(vk_.vkAllocateDescriptorSets(device_, &info, &set), "vkAllocateDescriptorSets");
  pool.sets_left -= 1;
  pool.storage_left -= storage_buffers;
  pool.uniform_left -= uniform_buffers;
  return set;
}

void DescriptorArena::reset() {
  for (Pool& pool : pools_) {
    check(vk_.vkResetDescriptorPool(device_, pool.pool, 0), "vkResetDescriptorPool");
    pool.sets_left = pool.sets;
    pool.storage_left = pool.storage;
    pool.uniform_left = pool.uniform;
  }
  current_ = 0;
}

}  // namespace sprig::vk
