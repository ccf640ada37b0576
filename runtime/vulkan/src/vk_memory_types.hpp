// Which Vulkan memory types suit which use, best first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <volk.h>

namespace sprig::vk {

enum class MemoryUse : std::uint8_t {
  DeviceLocal,  // kernels' data: device-local, not host-visible where possible (no BAR)
  HostVisible,  // mapped buffers: HOST_VISIBLE|HOST_COHERENT, DEVICE_LOCAL too if offered
  Staging,      // transfers: HOST_VISIBLE|HOST_COHERENT, HOST_CACHED too if offered (readback)
  Host,         // spilled scratch: HOST_VISIBLE|HOST_COHERENT, not DEVICE_LOCAL where offered
};

const char* memory_use_name(MemoryUse use);

// Indices of memory types allowed by `type_bits` that fit `use`, in order of preference.
// Empty if none fits.
std::vector<std::uint32_t> memory_type_candidates(const VkPhysicalDeviceMemoryProperties& properties,
                                                  std::uint32_t type_bits, MemoryUse use);

// Whether a buffer for `use` placed in memory with `flags` has spilled: a device-local
// buffer in host memory, where the device's own memory was full.
bool spills(VkMemoryPropertyFlags flags, MemoryUse use);

// One place an allocation may go: a new block of `memory_type`, or the existing block
// `block` (of that type).
struct Placement {
  std::uint32_t memory_type;
  std::optional<std::size_t> block;
};

// The places to try, in order, for an allocation that may share a block (`shared`) or
// needs one of its own. `candidates` are the memory types best first; `block_types[i]` is
// the type of existing block i, or nullopt where that block cannot be shared. Each type's
// existing blocks come before a new block of that type, and both before any worse type: a
// device-local buffer must not take room left in a host-memory staging block while
// device memory can still open a block: in host memory it runs many times slower
// (docs/benchmarks.md, "Parallel primitives").
std::vector<Placement> placement_order(const std::vector<std::uint32_t>& candidates,
                                       const std::vector<std::optional<std::uint32_t>>& block_types, bool shared);

}  // namespace sprig::vk
