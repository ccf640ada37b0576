// Simulator buffers: host bytes, zero-filled at allocation, or a view of another buffer's
// bytes (where a sequence placed a transient; such views track who wrote what).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "sprig/runtime/buffer.hpp"
#include "transient_owners.hpp"

namespace sprig::sim {

class SimBuffer final : public BufferStorage {
 public:
  // Throws DeviceError naming the size when the host cannot provide the memory.
  SimBuffer(std::size_t bytes, std::uint64_t device_id)
      : bytes_(zeroed_host_bytes(bytes)), data_(bytes_.get()), size_(bytes), device_id_(device_id) {}
  // The transient `name`: `bytes` bytes of `whole` from `offset` (a multiple of 4).
  SimBuffer(std::shared_ptr<SimBuffer> whole, std::size_t offset, std::size_t bytes, const std::string& name);

  std::byte* data() { return data_; }
  std::size_t size() const { return size_; }
  std::uint64_t device_id() const { return device_id_; }

  // A transient's view: the owners of the whole's words, its first word there and its id.
  TransientOwners* owners() const { return owners_; }
  std::uint64_t first_word() const { return first_word_; }
  std::uint32_t owner_id() const { return owner_id_; }

 private:
  static std::unique_ptr<std::byte[]> zeroed_host_bytes(std::size_t bytes);
  std::unique_ptr<std::byte[]> bytes_;  // null in a view
  std::shared_ptr<SimBuffer> whole_;    // a view's buffer
  std::unique_ptr<TransientOwners> transient_owners_;  // a whole's, once it has transient views
  std::byte* data_;
  std::size_t size_;
  std::uint64_t device_id_;
  TransientOwners* owners_ = nullptr;
  std::uint64_t first_word_ = 0;
  std::uint32_t owner_id_ = 0;
};

// The simulator storage behind `b`; throws DeviceError (naming `what`) if `b` is empty or
// belongs to another device.
SimBuffer& sim_buffer(const RawBuffer& b, std::uint64_t device_id, const std::string& what);

}  // namespace sprig::sim
