// Where a sequence needs pipeline barriers, derived from what each command reads and
// writes. A barrier goes before a command only if it reads or writes a buffer that a
// command since the last barrier wrote, or writes one that such a command read. Every
// barrier covers all work since the previous one (on GPUs a compute barrier drains the
// earlier dispatches anyway), so the tracker forgets that work once a barrier is placed.
// Pure and independent of Vulkan, so it is tested on its own.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <unordered_map>

namespace sprig::vk {

enum StageBits : unsigned { ComputeStage = 1, TransferStage = 2 };

struct BufferAccess {
  const void* buffer;  // identity of the buffer (its storage)
  bool reads = false;
  bool writes = false;
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
    bool read = false, written = false;
  };
  std::unordered_map<const void*, Use> since_barrier_;
  Dependency pending_;  // commands since the last barrier
  Dependency all_;
  std::size_t barriers_ = 0;
};

}  // namespace sprig::vk
