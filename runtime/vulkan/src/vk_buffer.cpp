#include "vk_buffer.hpp"

#include "sprig/dsl/error.hpp"
#include "vk_context.hpp"

namespace sprig::vk {

VulkanBuffer::VulkanBuffer(std::shared_ptr<DeviceContext> context, Allocation allocation, MemoryKind kind)
    : context_(std::move(context)), allocation_(allocation), kind_(kind) {}

VulkanBuffer::~VulkanBuffer() { context_->memory().release(allocation_); }

RawBuffer allocate_buffer(const std::shared_ptr<DeviceContext>& context, std::size_t bytes, ir::TypeRef element,
                          MemoryKind kind) {
  MemoryUse use = kind == MemoryKind::HostVisible  ? MemoryUse::HostVisible
                  : kind == MemoryKind::HostCached ? MemoryUse::Staging
                                                   : MemoryUse::DeviceLocal;
  Allocation allocation = context->memory().allocate(bytes, use);
  std::shared_ptr<VulkanBuffer> storage;
  try {
    storage = std::make_shared<VulkanBuffer>(context, allocation, kind);
  } catch (...) {
    context->memory().release(allocation);
    throw;
  }
  return RawBuffer(std::move(storage), bytes, element);
}

VulkanBuffer& vulkan_buffer(const RawBuffer& buffer, const DeviceContext& context, std::string_view what) {
  if (!buffer) throw DeviceError(std::string(what) + ": the buffer is empty (default-constructed RawBuffer)");
  auto* storage = dynamic_cast<VulkanBuffer*>(buffer.storage());
  if (storage == nullptr) throw DeviceError(std::string(what) + ": the buffer does not belong to a Vulkan device");
  if (storage->context() != &context) {
    throw DeviceError(std::string(what) + ": the buffer belongs to another Vulkan device");
  }
  return *storage;
}

}  // namespace sprig::vk
