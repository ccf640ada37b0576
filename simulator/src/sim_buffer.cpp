#include "sim_buffer.hpp"

#include "sprig/dsl/error.hpp"

namespace sprig::sim {

std::unique_ptr<std::byte[]> SimBuffer::zeroed_host_bytes(std::size_t bytes) {
  try {
    return std::make_unique<std::byte[]>(bytes);
  } catch (const std::bad_alloc&) {
    throw DeviceError("out of host memory allocating a simulator buffer of " + std::to_string(bytes) + " bytes");
  }
}

SimBuffer& sim_buffer(const RawBuffer& b, std::uint64_t device_id, const std::string& what) {
  if (!b) throw DeviceError(what + ": the buffer is empty (default-constructed or moved from)");
  auto* s = dynamic_cast<SimBuffer*>(b.storage());
  if (!s || s->device_id() != device_id)
    throw DeviceError(what + ": the buffer belongs to another device (allocate it on this sim::Device)");
  return *s;
}

}  // namespace sprig::sim
