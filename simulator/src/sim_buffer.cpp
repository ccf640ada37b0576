#include "sim_buffer.hpp"

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/out_of_memory.hpp"
#include "sprig/runtime/transient.hpp"

namespace sprig::sim {

std::unique_ptr<std::byte[]> SimBuffer::zeroed_host_bytes(std::size_t bytes) {
  try {
    return std::make_unique<std::byte[]>(bytes);
  } catch (const std::bad_alloc&) {
    throw OutOfDeviceMemory("out of host memory allocating a simulator buffer of " + std::to_string(bytes) + " bytes");
  }
}

SimBuffer::SimBuffer(std::shared_ptr<SimBuffer> whole, std::size_t offset, std::size_t bytes, const std::string& name)
    : whole_(std::move(whole)), data_(whole_->data() + offset), size_(bytes), device_id_(whole_->device_id()) {
  if (!whole_->transient_owners_) {
    whole_->transient_owners_ = std::make_unique<TransientOwners>();
    whole_->transient_owners_->last_writer.assign((whole_->size() + 3) / 4, 0);
  }
  owners_ = whole_->transient_owners_.get();
  owners_->names.push_back(name);
  owner_id_ = std::uint32_t(owners_->names.size());
  first_word_ = offset / 4;
}

SimBuffer& sim_buffer(const RawBuffer& b, std::uint64_t device_id, const std::string& what) {
  if (!b) throw DeviceError(what + ": the buffer is empty (default-constructed or moved from)");
  if (std::string misuse = transient_misuse(b); !misuse.empty()) throw DeviceError(what + ": " + misuse);
  auto* s = dynamic_cast<SimBuffer*>(b.storage());
  if (!s || s->device_id() != device_id)
    throw DeviceError(what + ": the buffer belongs to another device (allocate it on this sim::Device)");
  return *s;
}

}  // namespace sprig::sim
