#include "sprig/runtime/workspace.hpp"

#include <algorithm>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/backend.hpp"
#include "sprig/runtime/memory_plan.hpp"

namespace sprig {

std::vector<RawBuffer> allocate_scratch_blocks(DeviceBackend& device, std::uint64_t bytes, MemoryKind memory) {
  const std::uint64_t block = scratch_block_bytes(device.info());
  std::vector<RawBuffer> blocks;
  for (std::uint64_t start = 0; start < bytes; start += block)
    blocks.push_back(device.allocate(std::min(block, bytes - start), nullptr, memory));
  return blocks;
}

std::vector<RawBuffer> Workspace::blocks(DeviceBackend& device, std::uint64_t bytes, MemoryKind memory) {
  std::lock_guard lock(state_->mutex);
  if (state_->device != nullptr && state_->device != &device)
    throw DeviceError("Workspace: this workspace serves the device '" + state_->device->info().name +
                      "'; use another Workspace for '" + device.info().name + "'");
  state_->device = &device;
  Scratch& scratch = memory == MemoryKind::Host ? state_->host : state_->device_local;
  if (scratch.bytes < bytes) {
    scratch.memory.clear();  // the old memory goes before the new is asked for
    scratch.bytes = 0;
    scratch.memory = allocate_scratch_blocks(device, bytes, memory);
    scratch.bytes = bytes;
    ++state_->allocations;
  }
  return scratch.memory;
}

std::uint64_t Workspace::bytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->device_local.bytes;
}

std::uint64_t Workspace::host_bytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->host.bytes;
}

std::uint64_t Workspace::allocations() const {
  std::lock_guard lock(state_->mutex);
  return state_->allocations;
}

void Workspace::release() {
  std::lock_guard lock(state_->mutex);
  state_->device_local = {};
  state_->host = {};
}

}  // namespace sprig
