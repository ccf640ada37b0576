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

#include "sprig/runtime/buffer.hpp"

namespace sprig {

class DeviceBackend;

class Workspace {
 public:
  Workspace() : state_(std::make_shared<State>()) {}

  // Scratch of at least `bytes` on `device`: the memory kept, or a new allocation that
  // replaces it when it is too small (sequences still running keep the old one alive).
  RawBuffer scratch(DeviceBackend& device, std::uint64_t bytes);
  std::uint64_t bytes() const;        // held now
  std::uint64_t allocations() const;  // how many times it had to allocate
  void release();                     // gives the memory back (sequences in flight keep theirs)

 private:
  struct State {
    std::mutex mutex;
    const DeviceBackend* device = nullptr;
    RawBuffer memory;
    std::uint64_t allocations = 0;
  };
  std::shared_ptr<State> state_;  // copies of a Workspace share one memory
};

}  // namespace sprig
