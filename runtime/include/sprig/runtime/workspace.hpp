// Scratch memory kept from one sequence to the next. A sequence that uses a Workspace
// places its transient buffers in the workspace's memory instead of allocating its own,
// so that work repeated call after call (a sort, a batch of hashes) allocates nothing
// once the workspace has grown to the largest plan. Sequences on one device's queue run
// one after the other, so any number of them may share a workspace; a workspace serves
// one device.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "sprig/runtime/buffer.hpp"

namespace sprig {

class DeviceBackend;

// Scratch of `bytes` (device-local, or host memory for spilled transients) as blocks of
// scratch_block_bytes (memory_plan.hpp), the last one shorter.
std::vector<RawBuffer> allocate_scratch_blocks(DeviceBackend& device, std::uint64_t bytes,
                                               MemoryKind memory = MemoryKind::DeviceLocal);

class Workspace {
 public:
  Workspace() : state_(std::make_shared<State>()) {}

  // Scratch of at least `bytes` on `device`, as blocks of scratch_block_bytes (the last
  // shorter; one block unless `bytes` passes the device's largest allocation): the memory
  // kept, or new memory that replaces it when it is too small (sequences still running keep
  // the old alive). Device-local and host scratch (MemoryKind::Host, for the transients a
  // budget spills) are kept apart.
  std::vector<RawBuffer> blocks(DeviceBackend& device, std::uint64_t bytes, MemoryKind memory = MemoryKind::DeviceLocal);
  // The same, for memory that later sequences will need: grows the workspace now.
  void reserve(DeviceBackend& device, std::uint64_t bytes, MemoryKind memory = MemoryKind::DeviceLocal) {
    if (bytes > 0) (void)blocks(device, bytes, memory);
  }
  std::uint64_t bytes() const;        // device-local scratch held now
  std::uint64_t host_bytes() const;   // host scratch held now
  std::uint64_t allocations() const;  // how many times it had to grow
  void release();                     // gives the memory back (sequences in flight keep theirs)

 private:
  struct Scratch {
    std::vector<RawBuffer> memory;
    std::uint64_t bytes = 0;
  };
  struct State {
    std::mutex mutex;
    const DeviceBackend* device = nullptr;
    Scratch device_local, host;
    std::uint64_t allocations = 0;
  };
  std::shared_ptr<State> state_;  // copies of a Workspace share one memory
};

}  // namespace sprig
