// Descriptor sets for one sequence: allocated from pools that the sequence owns, so
// recording needs no lock, and freed all at once by reset() when the sequence is done.
#pragma once

#include <cstdint>
#include <vector>

#include <volk.h>

namespace sprig::vk {

class DescriptorArena {
 public:
  DescriptorArena(VkDevice device, const VolkDeviceTable& vk) : device_(device), vk_(vk) {}
  ~DescriptorArena();
  DescriptorArena(const DescriptorArena&) = delete;
  DescriptorArena& operator=(const DescriptorArena&) = delete;

  // A set of `layout`, which holds the given numbers of descriptors. Opens a new pool when
  // the current one cannot hold it (counted here: drivers need not report exhaustion).
  VkDescriptorSet allocate(VkDescriptorSetLayout layout, std::uint32_t storage_buffers, std::uint32_t uniform_buffers);
  // Frees every set; the pools stay open for the next sequence.
  void reset();

 private:
  struct Pool {
    VkDescriptorPool pool = VK_NULL_HANDLE;
    std::uint32_t sets = 0, storage = 0, uniform = 0;  // capacity
    std::uint32_t sets_left = 0, storage_left = 0, uniform_left = 0;
    bool fits(std::uint32_t storage_buffers, std::uint32_t uniform_buffers) const {
      return sets_left > 0 && storage_left >= storage_buffers && uniform_left >= uniform_buffers;
    }
  };
  void open_pool(std::uint32_t storage_buffers, std::uint32_t uniform_buffers);

  VkDevice device_;
  const VolkDeviceTable& vk_;
  std::vector<Pool> pools_;
  std::size_t current_ = 0;  // pools before it are full
};

}  // namespace sprig::vk
