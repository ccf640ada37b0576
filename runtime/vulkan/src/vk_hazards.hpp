// Where a sequence needs pipeline barriers, derived from what each command reads and
// writes. A barrier goes before a command only if it reads or writes a buffer that a
// command since the last barrier wrote, or writes one that such a command read. Every
// barrier covers all work since the previous one (on GPUs a compute barrier drains the
// earlier dispatches anyway), so the tracker forgets that work once a barrier is placed.
// Buffers are byte ranges of a memory (a block's VkBuffer): ranges that overlap conflict,
// which is how a transient placed where another one lived waits for that one's last use.
// Pure and independent of Vulkan, so it is tested on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace sprig::vk {

enum StageBits : unsigned { ComputeStage = 1, TransferStage = 2 };

struct BufferAccess {
  const void* memory;  // identity of the memory the buffer lies in
  bool reads = false;
  bool writes = false;
  std::uint64_t offset = 0;  // the buffer's bytes in that memory
  std::uint64_t size = UINT64_MAX;
};

// Work that must finish, and whose writes must be made visible, before what follows.
struct Dependency {
  unsigned stages = 0;          // StageBits of the commands to wait for
  unsigned writing_stages = 0;  // StageBits whose writes must be made visible
  bool operator==(const Dependency&) const = default;
};

class HazardTracker {
 public:
  // Declares the next command (running in `stage`) and returns the dependency a barrier
  // placed right before it must cover, or nothing when no barrier is needed.
  std::optional<Dependency> add_command(unsigned stage, std::span<const BufferAccess> accesses);

  // Everything the sequence did: what the barrier closing it must cover.
  Dependency whole_sequence() const { return all_; }
  std::size_t barriers() const { return barriers_; }

 private:
  struct Use {
    std::uint64_t offset = 0, size = 0;
    bool read = false, written = false;
  };
  // Per memory, the byte ranges commands since the last barrier touched.
  std::unordered_map<const void*, std::vector<Use>> since_barrier_;
  Dependency pending_;  // commands since the last barrier
  Dependency all_;
  std::size_t barriers_ = 0;
};

}  // namespace sprig::vk
