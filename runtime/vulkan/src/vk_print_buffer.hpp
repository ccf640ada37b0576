// device_print on Vulkan: the buffer one printing launch writes its records to
// (sprig/compiler/print_buffer.hpp), host-visible and private to the launch. Its header
// (filter, capacity) is written when the launch is recorded; once the sequence has
// finished its records become the launch's lines.
#pragma once

#include <array>
#include <memory>

#include "sprig/runtime/launch.hpp"
#include "sprig/runtime/print_log.hpp"
#include "vk_buffer.hpp"

namespace sprig::vk {

class DeviceContext;

class PrintBuffer {
 public:
  PrintBuffer(const std::shared_ptr<DeviceContext>& context, const Launch& launch, const PrintOptions& options);

  const RawBuffer& buffer() const { return buffer_; }
  VulkanBuffer& storage() const { return static_cast<VulkanBuffer&>(*buffer_.storage()); }
  // The launch's lines; only once the GPU is done with the buffer.
  LaunchPrints read() const;

 private:
  RawBuffer buffer_;
  std::shared_ptr<const ir::Kernel> kernel_;
  std::array<std::uint32_t, 3> workgroups_;
  SourceLoc launched_at_;
  std::uint32_t capacity_ = 0;  // words of the record area
};

}  // namespace sprig::vk
