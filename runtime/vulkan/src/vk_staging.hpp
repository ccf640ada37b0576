// Host <-> device-local transfers through one reusable staging buffer, split into two
// halves so that the host copies one chunk while the device transfers the other.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <optional>
#include <span>

#include <volk.h>

#include "vk_command_slot.hpp"
#include "vk_memory.hpp"

namespace sprig::vk {

class DeviceContext;
class VulkanBuffer;

class StagingTransfers {
 public:
  StagingTransfers(DeviceContext& context, std::size_t staging_bytes);
  ~StagingTransfers();
  StagingTransfers(const StagingTransfers&) = delete;
  StagingTransfers& operator=(const StagingTransfers&) = delete;

  // Both return once the data has arrived. Thread-safe (transfers take turns).
  void upload(const VulkanBuffer& dst, VkDeviceSize offset, std::span<const std::byte> data);
  void download(const VulkanBuffer& src, VkDeviceSize offset, std::span<std::byte> out);

 private:
  struct Slot {
    std::optional<CommandSlot> command;
    bool pending = false;
    VkDeviceSize staging_offset = 0;  // this half's start in the staging allocation
  };
  enum class Direction { ToDevice, ToHost };

  void submit_copy(Slot& slot, const VulkanBuffer& buffer, VkDeviceSize buffer_offset, VkDeviceSize bytes,
                   Direction direction);
  void wait(Slot& slot);
  void wait_all_quietly() noexcept;  // after a failure: leave no work referring to the slots
  void release_resources() noexcept;

  DeviceContext& context_;
  std::mutex mutex_;
  Allocation staging_;
  VkDeviceSize half_bytes_ = 0;
  std::array<Slot, 2> slots_;
};

}  // namespace sprig::vk
