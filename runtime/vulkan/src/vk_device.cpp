#include "vk_device.hpp"

#include <cstring>

#include "sprig/dsl/error.hpp"
#include "vk_buffer.hpp"
#include "vk_context.hpp"
#include "vk_sequence.hpp"
#include "vk_staging.hpp"

namespace sprig::vk {

namespace {

void check_transfer_range(const char* what, const RawBuffer& buffer, std::size_t offset, std::size_t bytes) {
  if (offset > buffer.bytes() || bytes > buffer.bytes() - offset) {
    throw DeviceError(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                      " do not fit in a buffer of " + std::to_string(buffer.bytes()) + " bytes");
  }
}

}  // namespace

VulkanDevice::VulkanDevice(std::shared_ptr<DeviceContext> context) : context_(std::move(context)) {}

const DeviceInfo& VulkanDevice::info() const { return context_->info(); }

RawBuffer VulkanDevice::allocate(std::size_t bytes, ir::TypeRef element, MemoryKind memory) {
  context_->throw_if_lost();
  if (memory == MemoryKind::Host) return allocate_buffer(context_, bytes, element, memory);  // not device memory
  MemoryCharge charge(shared_ledger(), bytes, "allocating a buffer on '" + info().name + "'");
  RawBuffer buffer = allocate_buffer(context_, bytes, element, memory);
  buffer.storage()->hold(std::move(charge));
  return buffer;
}

RawBuffer VulkanDevice::view(const RawBuffer& whole, std::uint64_t offset, std::uint64_t bytes, const std::string&) {
  return buffer_view(whole, *context_, offset, bytes);
}

std::optional<DriverMemoryBudget> VulkanDevice::driver_memory() const { return context_->memory().driver_budget(); }
std::uint64_t VulkanDevice::spilled_bytes() const { return context_->memory().spilled_bytes(); }

void VulkanDevice::write(const RawBuffer& dst, std::size_t offset, std::span<const std::byte> data) {
  context_->throw_if_lost();
  VulkanBuffer& buffer = vulkan_buffer(dst, *context_, "write");
  check_transfer_range("write", dst, offset, data.size());
  if (!data.empty()) {
    if (buffer.mapped() != nullptr && buffer.kind() != MemoryKind::DeviceLocal) {
      std::memcpy(buffer.mapped() + offset, data.data(), data.size());  // coherent: no flush
    } else {
      context_->staging().upload(buffer, offset, data);
    }
  }
  context_->throw_if_validation_messages("write");
}

void VulkanDevice::read(const RawBuffer& src, std::size_t offset, std::span<std::byte> data) {
  context_->throw_if_lost();
  VulkanBuffer& buffer = vulkan_buffer(src, *context_, "read");
  check_transfer_range("read", src, offset, data.size());
  if (!data.empty()) {
    if (buffer.mapped() != nullptr && buffer.kind() != MemoryKind::DeviceLocal) {
      std::memcpy(data.data(), buffer.mapped() + offset, data.size());
    } else {
      context_->staging().download(buffer, offset, data);
    }
  }
  context_->throw_if_validation_messages("read");
}

std::unique_ptr<SequenceBackend> VulkanDevice::sequence() {
  return std::make_unique<VulkanSequence>(context_, shared_prints());
}

}  // namespace sprig::vk
