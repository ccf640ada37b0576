// Copies between device-local buffers as a compute kernel instead of vkCmdCopyBuffer: on
// NVIDIA's driver a copy command moves a third of what a kernel does (an H100: 0.8 against
// 2.99 TB/s, docs/benchmarks.md), and sprig's own algorithms copy gigabytes (the radix sort
// under a budget moves every key through copies m times). Options::copies picks the method;
// a copy the kernel cannot take (a host-visible buffer, offsets or a size that are not
// multiples of 16 bytes or of the device's storage-buffer offset alignment) always goes
// through vkCmdCopyBuffer. A copy larger than one binding may hold runs as several
// launches of at most copy_piece_bytes each.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sprig/dsl/ir.hpp"

namespace sprig::vk {

class DeviceContext;
class VulkanBuffer;

// The copy kernel: one 16-byte vector per invocation, 256 invocations a workgroup, in rows
// of workgroups (copy_workgroups), from binding 0 to binding 1, as many vectors as binding
// 0 holds. Traced once per process.
std::shared_ptr<const ir::Kernel> copy_kernel();

// Whether `context` copies these bytes with copy_kernel(): Options::copies allows it and the
// kernel can bind both ranges.
bool copies_by_kernel(const DeviceContext& context, const VulkanBuffer& from, std::size_t src_offset,
                      const VulkanBuffer& to, std::size_t dst_offset, std::size_t bytes);

// The most bytes one launch of copy_kernel() copies: maxStorageBufferRange rounded down to
// the offset alignment, so that the next piece's views bind too.
std::size_t copy_piece_bytes(const DeviceContext& context);

// The workgroups copy_kernel() dispatches for `bytes` (a multiple of 16).
std::array<std::uint32_t, 3> copy_workgroups(std::size_t bytes);

}  // namespace sprig::vk
