#include "vk_buffer.hpp"

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/transient.hpp"
#include "vk_context.hpp"

namespace sprig::vk {

VulkanBuffer::VulkanBuffer(std::shared_ptr<DeviceContext> context, Allocation allocation, MemoryKind kind)
    : context_(std::move(context)), allocation_(allocation), kind_(kind) {}

VulkanBuffer::VulkanBuffer(std::shared_ptr<BufferStorage> whole, VkDeviceSize offset, VkDeviceSize bytes)
    : whole_(std::move(whole)) {
  const auto& owner = static_cast<const VulkanBuffer&>(*whole_);
  context_ = owner.context_;
  kind_ = owner.kind_;
  allocation_ = owner.allocation_;
  allocation_.offset += offset;
  allocation_.size = bytes;
  if (allocation_.mapped != nullptr) allocation_.mapped += offset;
}

VulkanBuffer::~VulkanBuffer() {
  if (!whole_) context_->memory().release(allocation_);
}

RawBuffer allocate_buffer(const std::shared_ptr<DeviceContext>& context, std::size_t bytes, ir::TypeRef element,
                          MemoryKind kind) {
  MemoryUse use = kind == MemoryKind::HostVisible  ? MemoryUse::HostVisible
                  : kind == MemoryKind::HostCached ? MemoryUse::Staging
                  : kind == MemoryKind::Host       ? MemoryUse::Host
                                                   : MemoryUse::DeviceLocal;
  Allocation allocation = context->memory().allocate(bytes, use);
  std::shared_ptr<VulkanBuffer> storage;
  try {
    storage = std::make_shared<VulkanBuffer>(context, allocation, kind);
    if (kind == MemoryKind::Host) storage->set_host_memory();
  } catch (...) {
    context->memory().release(allocation);
    throw;
  }
  return RawBuffer(std::move(storage), bytes, element);
}

RawBuffer buffer_view(const RawBuffer& whole, const DeviceContext& context, VkDeviceSize offset, VkDeviceSize bytes) {
  VulkanBuffer& owner = vulkan_buffer(whole, context, "view");
  if (offset > owner.capacity() || bytes > owner.capacity() - offset)
    throw DeviceError("view: bytes [" + std::to_string(offset) + ", +" + std::to_string(bytes) +
                      ") are outside the buffer of " + std::to_string(owner.capacity()) + " bytes");
  return RawBuffer(std::make_shared<VulkanBuffer>(whole.shared_storage(), offset, bytes), bytes, nullptr);
}

VulkanBuffer& vulkan_buffer(const RawBuffer& buffer, const DeviceContext& context, std::string_view what) {
  if (!buffer) throw DeviceError(std::string(what) + ": the buffer is empty (default-constructed RawBuffer)");
  if (std::string misuse = transient_misuse(buffer); !misuse.empty()) throw DeviceError(std::string(what) + ": " + misuse);
  auto* storage = dynamic_cast<VulkanBuffer*>(buffer.storage());
  if (storage == nullptr) throw DeviceError(std::string(what) + ": the buffer does not belong to a Vulkan device");
  if (storage->context() != &context) {
    throw DeviceError(std::string(what) + ": the buffer belongs to another Vulkan device");
  }
  return *storage;
}

}  // namespace sprig::vk
