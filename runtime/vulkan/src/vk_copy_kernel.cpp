#include "vk_copy_kernel.hpp"

#include <algorithm>

#include "sprig/dsl.hpp"
#include "vk_buffer.hpp"
#include "vk_context.hpp"

namespace sprig::vk {

namespace {

constexpr std::uint32_t copy_workgroup_size = 256;
// Rows of workgroups, so that copies of more than 65,535 workgroups (16 MiB) launch on
// every device.
constexpr std::uint64_t workgroups_per_row = 32768;

// Where a copy kernel's ranges may start: 16-byte vectors, at offsets the device binds.
VkDeviceSize copy_alignment(const DeviceContext& context) {
  return std::max<VkDeviceSize>(16, context.caps().min_storage_buffer_offset_alignment);
}

}  // namespace

std::shared_ptr<const ir::Kernel> copy_kernel() {
  static const std::shared_ptr<const ir::Kernel> traced =
      kernel(
          "copy",
          [](ReadBuffer<uvec4> from, WriteBuffer<uvec4> to) {
            UInt workgroup = workgroup_id().y() * num_workgroups().x() + workgroup_id().x();
            UInt i = workgroup * copy_workgroup_size + local_index();
            if_(i < from.size(), [&] { to[i] = from[i].load(); });
          },
          workgroup(copy_workgroup_size))
          .ir();
  return traced;
}

bool copies_by_kernel(const DeviceContext& context, const VulkanBuffer& from, std::size_t src_offset,
                      const VulkanBuffer& to, std::size_t dst_offset, std::size_t bytes) {
  const Options::CopyMethod method = context.options().copies;
  if (method == Options::CopyMethod::Command) return false;
  // Built-in kernels compile through sprig's own compiler, so a substituted one (tests'
  // hand-written SPIR-V) leaves copies to the copy command unless a test asks for kernels.
  if (method == Options::CopyMethod::Auto &&
      (context.info().driver != DriverId::NvidiaProprietary || context.options().spirv_compiler))
    return false;
  const VkDeviceSize alignment = copy_alignment(context);
  auto bindable = [&](const VulkanBuffer& buffer, std::size_t offset) {
    return buffer.kind() == MemoryKind::DeviceLocal && (buffer.offset() + offset) % alignment == 0;
  };
  return bytes % 16 == 0 && bindable(from, src_offset) && bindable(to, dst_offset);
}

std::size_t copy_piece_bytes(const DeviceContext& context) {
  const VkDeviceSize alignment = copy_alignment(context);
  return std::size_t(context.info().max_buffer_bytes / alignment * alignment);
}

std::array<std::uint32_t, 3> copy_workgroups(std::size_t bytes) {
  const std::uint64_t workgroups = (bytes / 16 + copy_workgroup_size - 1) / copy_workgroup_size;
  const std::uint64_t per_row = std::clamp<std::uint64_t>(workgroups, 1, workgroups_per_row);
  return {std::uint32_t(per_row), std::uint32_t((workgroups + per_row - 1) / per_row), 1};
}

}  // namespace sprig::vk
