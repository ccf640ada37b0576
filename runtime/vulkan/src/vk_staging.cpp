#include "vk_staging.hpp"

#include <algorithm>
#include <cstring>

#include "vk_buffer.hpp"
#include "vk_context.hpp"
#include "vk_result.hpp"

namespace sprig::vk {

StagingTransfers::StagingTransfers(DeviceContext& context, std::size_t staging_bytes) : context_(context) {
  VkDeviceSize alignment = context_.memory().alignment();
  // Each half starts aligned, so copies stay on the device's preferred boundaries.
  half_bytes_ = std::max<VkDeviceSize>(staging_bytes / 2 / alignment * alignment, alignment);
  staging_ = context_.memory().allocate(2 * half_bytes_, MemoryUse::Staging);

  try {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      slots_[i].command.emplace(context_, "staging");
      slots_[i].staging_offset = i * half_bytes_;
    }
  } catch (...) {
    release_resources();
    throw;
  }
}

StagingTransfers::~StagingTransfers() { release_resources(); }

void StagingTransfers::release_resources() noexcept {
  wait_all_quietly();
  if (context_.lost()) return;  // the GPU may still use the slots: the context leaves them
  for (Slot& slot : slots_) slot.command.reset();
  context_.memory().release(staging_);
  staging_ = {};
}

void StagingTransfers::submit_copy(Slot& slot, const VulkanBuffer& buffer, VkDeviceSize buffer_offset,
                                   VkDeviceSize bytes, Direction direction) {
  const VolkDeviceTable& vk = context_.vk();
  VkCommandBuffer commands = slot.command->commands();
  slot.command->reset();  // the slot's previous copy has been waited for
  slot.command->begin();

  VkBufferCopy region{};
  region.size = bytes;
  VkMemoryBarrier after{};
  after.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  after.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  VkPipelineStageFlags after_stages = 0;
  if (direction == Direction::ToDevice) {
    region.srcOffset = staging_.offset + slot.staging_offset;
    region.dstOffset = buffer.offset() + buffer_offset;
    vk.vkCmdCopyBuffer(commands, staging_.buffer, buffer.handle(), 1, &region);
    // Later commands on the queue (sequences, other transfers) see the new contents;
    // sprig's queue runs nothing but compute and transfer commands.
    after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                          VK_ACCESS_TRANSFER_WRITE_BIT;
    after_stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  } else {
    region.srcOffset = buffer.offset() + buffer_offset;
    region.dstOffset = staging_.offset + slot.staging_offset;
    vk.vkCmdCopyBuffer(commands, buffer.handle(), staging_.buffer, 1, &region);
    // A fence alone does not make device writes visible to the host.
    after.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    after_stages = VK_PIPELINE_STAGE_HOST_BIT;
  }
  vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, after_stages, 0, 1, &after, 0, nullptr, 0,
                          nullptr);
  context_.check(vk.vkEndCommandBuffer(commands), "vkEndCommandBuffer (staging)");
  context_.submit(commands, slot.command->fence(), direction == Direction::ToDevice ? "buffer write" : "buffer read");
  slot.pending = true;
}

void StagingTransfers::wait(Slot& slot) {
  if (!slot.pending) return;
  VkResult result = context_.wait_for(slot.command->fence());
  if (result == VK_TIMEOUT) {
    // Transfers queue behind every sequence submitted before them: one of those is stuck.
    context_.lose("a buffer transfer did not finish within " + context_.timeout_text() +
                  " (vk::Options::wait_timeout), queued behind the sequences submitted before it");
  }
  slot.pending = false;
  context_.check(result, "vkWaitForFences (staging transfer)");
}

void StagingTransfers::wait_all_quietly() noexcept {
  for (Slot& slot : slots_) {
    if (slot.pending && !context_.lost()) {
      VkResult result = context_.wait_for(slot.command->fence());
      if (result != VK_SUCCESS) {
        try {
          context_.lose("a buffer transfer failed while waiting: " + result_name(result));
        } catch (const DeviceLost&) {
        }
      }
    }
    slot.pending = false;
  }
}

void StagingTransfers::upload(const VulkanBuffer& dst, VkDeviceSize offset, std::span<const std::byte> data) {
  std::lock_guard lock(mutex_);
  try {
    std::size_t chunk_index = 0;
    for (VkDeviceSize done = 0; done < data.size(); done += half_bytes_, ++chunk_index) {
      Slot& slot = slots_[chunk_index % slots_.size()];
      VkDeviceSize bytes = std::min<VkDeviceSize>(half_bytes_, data.size() - done);
      wait(slot);  // its previous chunk must have left the staging half
      std::memcpy(staging_.mapped + slot.staging_offset, data.data() + done, bytes);
      submit_copy(slot, dst, offset + done, bytes, Direction::ToDevice);
    }
    for (Slot& slot : slots_) wait(slot);
  } catch (...) {
    wait_all_quietly();
    throw;
  }
}

void StagingTransfers::download(const VulkanBuffer& src, VkDeviceSize offset, std::span<std::byte> out) {
  std::lock_guard lock(mutex_);
  try {
    std::size_t chunks = (out.size() + half_bytes_ - 1) / half_bytes_;
    auto chunk_bytes = [&](std::size_t i) { return std::min<VkDeviceSize>(half_bytes_, out.size() - i * half_bytes_); };
    // Keep both halves busy: chunk i+2 is requested as soon as chunk i has been copied out.
    for (std::size_t i = 0; i < std::min(chunks, slots_.size()); ++i) {
      submit_copy(slots_[i], src, offset + i * half_bytes_, chunk_bytes(i), Direction::ToHost);
    }
    for (std::size_t i = 0; i < chunks; ++i) {
      Slot& slot = slots_[i % slots_.size()];
      wait(slot);
      std::memcpy(out.data() + i * half_bytes_, staging_.mapped + slot.staging_offset, chunk_bytes(i));
      std::size_t next = i + slots_.size();
      if (next < chunks) submit_copy(slot, src, offset + next * half_bytes_, chunk_bytes(next), Direction::ToHost);
    }
  } catch (...) {
    wait_all_quietly();
    throw;
  }
}

}  // namespace sprig::vk
