// Device buffers as the host sees them, independent of the backend that owns the memory.
// A RawBuffer is a byte range plus the element type it was created for (checked against
// the kernel's parameter at launch); DeviceBuffer<T> adds the element type statically.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "sprig/dsl/types.hpp"
#include "sprig/runtime/memory_budget.hpp"

namespace sprig {

// Backend-specific storage behind a buffer (a Vulkan sub-allocation, simulator bytes).
class BufferStorage {
 public:
  virtual ~BufferStorage() = default;
  // Counts this buffer's bytes on a device's ledger until it is destroyed.
  void hold(MemoryCharge charge) { charge_ = std::move(charge); }
  // What memory plans call the buffer (Device::alloc's name); empty if unnamed.
  const std::string& label() const { return label_; }
  void set_label(std::string label) { label_ = std::move(label); }
  // Host memory the device reaches (MemoryKind::Host): not device memory, so not charged.
  bool host_memory() const { return host_memory_; }
  void set_host_memory() { host_memory_ = true; }

 private:
  MemoryCharge charge_;
  std::string label_;
  bool host_memory_ = false;
};

enum class MemoryKind : unsigned char {
  DeviceLocal,  // fastest for kernels; host transfers go through staging
  HostVisible,  // mapped on the host; for data the host touches every launch
  // Mapped and cached on the host: for results the host reads back (reading HostVisible
  // memory that lives on the device, e.g. through a resizable BAR, is uncached and slow).
  HostCached,
  // System memory that kernels reach over the bus, never device memory where the device
  // has both: where a sequence under a budget spills transients (docs/memory.md). Not
  // charged to the device's ledger or budget.
  Host,
};

class RawBuffer {
 public:
  RawBuffer() = default;
  RawBuffer(std::shared_ptr<BufferStorage> storage, std::size_t bytes, ir::TypeRef element)
      : storage_(std::move(storage)), bytes_(bytes), element_(element) {}

  std::size_t bytes() const { return bytes_; }
  ir::TypeRef element_type() const { return element_; }
  BufferStorage* storage() const { return storage_.get(); }
  const std::shared_ptr<BufferStorage>& shared_storage() const { return storage_; }
  explicit operator bool() const { return storage_ != nullptr; }

 private:
  std::shared_ptr<BufferStorage> storage_;
  std::size_t bytes_ = 0;
  ir::TypeRef element_ = nullptr;
};

// A buffer of `size()` elements of T (std430 array stride).
template <class T>
class DeviceBuffer : public RawBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(RawBuffer raw, std::size_t count) : RawBuffer(std::move(raw)), count_(count) {}
  std::size_t size() const { return count_; }

 private:
  std::size_t count_ = 0;
};

}  // namespace sprig
