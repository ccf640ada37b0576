// sprig's DeviceBackend for Vulkan: buffers, host transfers and sequences on one device.
#pragma once

#include <memory>

#include "sprig/runtime/backend.hpp"

namespace sprig::vk {

class DeviceContext;

class VulkanDevice final : public DeviceBackend {
 public:
  explicit VulkanDevice(std::shared_ptr<DeviceContext> context);

  const DeviceInfo& info() const override;
  RawBuffer allocate(std::size_t bytes, ir::TypeRef element, MemoryKind memory) override;
  RawBuffer view(const RawBuffer& whole, std::uint64_t offset, std::uint64_t bytes,
                 const std::string& transient_name) override;
  std::optional<DriverMemoryBudget> driver_memory() const override;
  std::uint64_t spilled_bytes() const override;
  // Device-local buffers go through the staging buffer, host-visible ones are copied
  // directly. Neither waits for submitted sequences: wait() for those that use the buffer.
  void write(const RawBuffer& dst, std::size_t offset, std::span<const std::byte> data) override;
  void read(const RawBuffer& src, std::size_t offset, std::span<std::byte> data) override;
  std::unique_ptr<SequenceBackend> sequence() override;

  DeviceContext& context() const { return *context_; }

 private:
  std::shared_ptr<DeviceContext> context_;
};

}  // namespace sprig::vk
