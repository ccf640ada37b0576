#include "sprig/runtime/workspace.hpp"

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/backend.hpp"

namespace sprig {

RawBuffer Workspace::scratch(DeviceBackend& device, std::uint64_t bytes) {
  std::lock_guard lock(state_->mutex);
  if (state_->device != nullptr && state_->device != &device)
    throw DeviceError("Workspace: this workspace serves the device '" + state_->device->info().name +
                      "'; use another Workspace for '" + device.info().name + "'");
  state_->device = &device;
  if (!state_->memory || state_->memory.bytes() < bytes) {
    state_->memory = RawBuffer();  // the old memory goes before the new is asked for
    state_->memory = device.allocate(bytes, nullptr, MemoryKind::DeviceLocal);
    ++state_->allocations;
  }
  return state_->memory;
}

std::uint64_t Workspace::bytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->memory.bytes();
}

std::uint64_t Workspace::allocations() const {
  std::lock_guard lock(state_->mutex);
  return state_->allocations;
}

void Workspace::release() {
  std::lock_guard lock(state_->mutex);
  state_->memory = RawBuffer();
}

}  // namespace sprig
