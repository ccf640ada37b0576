// Where a sequence's buffers live and when: each buffer's size and live range (the first
// and last command that touch it), and for transient buffers the offset the planner gave
// them in the sequence's shared scratch memory. Buffers whose live ranges do not overlap
// may share bytes; the plan is what Sequence::memory_plan() reports, as text or JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sprig/runtime/backend.hpp"

namespace sprig {

// How transient buffers are placed in the scratch memory.
enum class TransientPlacement : std::uint8_t {
  Shared,    // buffers alive at different times share bytes (the default)
  Separate,  // every buffer has bytes of its own: to rule the planner out when debugging
  // Every buffer at offset 0, lives overlapping or not. Wrong on purpose: for the tests
  // proving that the simulator catches a read of bytes another buffer overwrote.
  UnsafeAllAtZero,
};

// What a sequence does when its plan does not fit its memory budget.
enum class OverBudget : std::uint8_t {
  Refuse,       // submit() throws MemoryBudgetExceeded
  // Transients move to host memory that kernels reach over the bus (slower, correct) until
  // the device's part fits; it still throws if the persistent buffers alone do not fit.
  SpillToHost,
};

struct PlannedBuffer {
  std::string name;  // the name given to Sequence::transient or Device::alloc; may be empty
  std::uint64_t bytes = 0;
  std::size_t first_command = 0;  // live range: [first_command, last_command]
  std::size_t last_command = 0;
  bool transient = false;
  std::uint64_t offset = 0;  // transients: where in the scratch memory (host scratch if `host`)
  bool used = true;          // false: a transient no command touched (it takes no bytes)
  std::size_t touches = 0;   // how many commands touch it
  // In host memory: a persistent buffer allocated there, or a transient the planner spilled
  // to fit a budget. Not device memory, so not in persistent_bytes or scratch_bytes.
  bool host = false;

  bool alive_with(const PlannedBuffer& other) const {
    return first_command <= other.last_command && other.first_command <= last_command;
  }
};

struct MemoryPlan {
  std::vector<PlannedBuffer> buffers;  // persistent buffers first, in order of first use
  std::size_t commands = 0;
  std::uint64_t scratch_bytes = 0;       // the transients' shared device memory
  std::uint64_t host_scratch_bytes = 0;  // the spilled transients' shared host memory
  std::uint64_t persistent_bytes = 0;    // the other buffers in device memory the commands touch
  // The most transient bytes alive during any one command: what a perfect placement needs.
  std::uint64_t live_transient_peak = 0;
  // Device memory the sequence holds at its busiest: its persistent buffers plus the scratch.
  std::uint64_t peak_bytes() const { return persistent_bytes + scratch_bytes; }

  std::string text() const;
  std::string json() const;
};

// Transient buffers' offsets are multiples of this: the largest storage-buffer offset
// alignment Vulkan allows a device to require.
constexpr std::uint64_t kTransientAlignment = 256;

// Scratch larger than one allocation may be (maxMemoryAllocationSize) is made of blocks of
// this many bytes, the last one shorter; no transient straddles two blocks.
std::uint64_t scratch_block_bytes(const DeviceInfo& device);

// Gives every used transient of `buffers` not in host memory an offset so that buffers
// alive at the same time never share a byte and none straddles a multiple of `block_bytes`,
// and returns the scratch bytes needed: first fit in three orders, the tightest kept
// (docs/memory.md).
// Deterministic. Throws DeviceError naming a transient larger than a block.
std::uint64_t place_transients(std::vector<PlannedBuffer>& buffers, TransientPlacement placement,
                               std::uint64_t block_bytes = ~std::uint64_t(0),
                               std::uint64_t alignment = kTransientAlignment);

// The most bytes of used transients alive during any one command.
std::uint64_t live_transient_peak(const std::vector<PlannedBuffer>& buffers);

struct ScratchBytes {
  std::uint64_t device = 0, host = 0;
};
// place_transients within `device_limit` bytes of device scratch: where more device
// transients would be alive at once, the ones touched by the fewest commands (the largest
// among those) move to host memory (`host`), which kernels reach over the bus; the host
// transients share a scratch of their own the same way. Deterministic (host_spill.cpp).
ScratchBytes place_transients_within(std::vector<PlannedBuffer>& buffers, TransientPlacement placement,
                                     std::uint64_t block_bytes, std::uint64_t device_limit);

}  // namespace sprig
