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

// Device-local scratch of `bytes` as blocks of scratch_block_bytes (memory_plan.hpp), the
// last one shorter.
std::vector<RawBuffer> allocate_scratch_blocks(DeviceBackend& device, std::uint64_t bytes);

class Workspace {
 public:
  Workspace() : state_(std::make_shared<State>()) {}

  // Scratch of at least `bytes` on `device`, as blocks of scratch_block_bytes (the last
  // shorter; one block unless `bytes` passes the device's largest allocation): the memory
  // kept, or new memory that replaces it when it is too small (sequences still running keep
  // the old alive).
  std::vector<RawBuffer> blocks(DeviceBackend& device, std::uint64_t bytes);
  // The same, for memory that later sequences will need: grows the workspace now.
  void reserve(DeviceBackend& device, std::uint64_t bytes) { (void)blocks(device, bytes); }
  std::uint64_t bytes() const;        // held now
  std::uint64_t allocations() const;  // how many times it had to grow
  void release();                     // gives the memory back (sequences in flight keep theirs)

 private:
  struct State {
    std::mutex mutex;
    const DeviceBackend* device = nullptr;
    std::vector<RawBuffer> memory;
    std::uint64_t bytes = 0;
    std::uint64_t allocations = 0;
  };
  std::shared_ptr<State> state_;  // copies of a Workspace share one memory
};

}  // namespace sprig
