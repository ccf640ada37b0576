// The Vulkan storage behind a RawBuffer: a range of a memory block. The range returns to
// the allocator when the last RawBuffer (or sequence) referring to it lets go.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include <volk.h>

#include "sprig/runtime/buffer.hpp"
#include "vk_memory.hpp"

namespace sprig::vk {

class DeviceContext;

class VulkanBuffer final : public BufferStorage {
 public:
  VulkanBuffer(std::shared_ptr<DeviceContext> context, Allocation allocation, MemoryKind kind);
  // `bytes` bytes of `whole` from `offset`: shares its memory, keeps it alive, frees nothing.
  VulkanBuffer(std::shared_ptr<BufferStorage> whole, VkDeviceSize offset, VkDeviceSize bytes);
  ~VulkanBuffer() override;
  VulkanBuffer(const VulkanBuffer&) = delete;
  VulkanBuffer& operator=(const VulkanBuffer&) = delete;

  VkBuffer handle() const { return allocation_.buffer; }
  VkDeviceSize offset() const { return allocation_.offset; }
  VkDeviceSize capacity() const { return allocation_.size; }  // >= the RawBuffer's bytes
  std::byte* mapped() const { return allocation_.mapped; }
  MemoryKind kind() const { return kind_; }
  const DeviceContext* context() const { return context_.get(); }

 private:
  std::shared_ptr<DeviceContext> context_;  // keeps the allocator alive
  std::shared_ptr<BufferStorage> whole_;    // a view's buffer, which owns the allocation
  Allocation allocation_;
  MemoryKind kind_;
};

// A RawBuffer of `bytes` bytes on `context`, in `kind` memory.
RawBuffer allocate_buffer(const std::shared_ptr<DeviceContext>& context, std::size_t bytes, ir::TypeRef element,
                          MemoryKind kind);

// A view of `whole` (see DeviceBackend::view).
RawBuffer buffer_view(const RawBuffer& whole, const DeviceContext& context, VkDeviceSize offset, VkDeviceSize bytes);

// The Vulkan storage of `buffer`; throws DeviceError (prefixed by `what`) if the buffer is
// empty or belongs to another device or backend.
VulkanBuffer& vulkan_buffer(const RawBuffer& buffer, const DeviceContext& context, std::string_view what);

}  // namespace sprig::vk
