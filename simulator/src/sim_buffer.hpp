// Simulator buffers: host bytes, zero-filled at allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "sprig/runtime/buffer.hpp"

namespace sprig::sim {

class SimBuffer final : public BufferStorage {
 public:
  // Throws DeviceError naming the size when the host cannot provide the memory.
  SimBuffer(std::size_t bytes, std::uint64_t device_id)
      : bytes_(zeroed_host_bytes(bytes)), size_(bytes), device_id_(device_id) {}
  std::byte* data() { return bytes_.get(); }
  std::size_t size() const { return size_; }
  std::uint64_t device_id() const { return device_id_; }

 private:
  static std::unique_ptr<std::byte[]> zeroed_host_bytes(std::size_t bytes);
  std::unique_ptr<std::byte[]> bytes_;
  std::size_t size_;
  std::uint64_t device_id_;
};

// The simulator storage behind `b`; throws DeviceError (naming `what`) if `b` is empty or
// belongs to another device.
SimBuffer& sim_buffer(const RawBuffer& b, std::uint64_t device_id, const std::string& what);

}  // namespace sprig::sim
