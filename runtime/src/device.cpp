// The non-template checks of sprig::Device and sprig::Sequence (device.hpp).
#include "sprig/runtime/device.hpp"

#include <string>

#include "sprig/dsl/error.hpp"
#include "sprig/dsl/layout.hpp"

namespace sprig {

namespace {

bool range_fits(std::size_t offset, std::size_t bytes, std::size_t size) { return offset <= size && bytes <= size - offset; }

}  // namespace

void Sequence::check_same_size(const RawBuffer& a, const RawBuffer& b) {
  if (a.bytes() != b.bytes()) {
    throw DeviceError("copy: the source has " + std::to_string(a.bytes()) + " bytes but the destination has " +
                      std::to_string(b.bytes()) + " (give offsets and a size to copy part of a buffer)");
  }
}

void Sequence::check_range(const RawBuffer& b, std::size_t offset, std::size_t bytes) {
  if (!range_fits(offset, bytes, b.bytes())) {
    throw DeviceError("copy: " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                      " do not fit in a buffer of " + std::to_string(b.bytes()) + " bytes");
  }
}

void Device::check_elements(const RawBuffer& b, std::size_t first, std::size_t count) {
  // Element size: the std430 array stride of the buffer's element type (the host type has
  // the same size, which check_host_layout ensures before this is called).
  std::size_t stride = b.element_type() != nullptr ? ir::array_stride(b.element_type(), ir::LayoutRule::Std430) : 1;
  std::size_t elements = b.bytes() / stride;
  if (first > elements || count > elements - first) {
    throw DeviceError("elements [" + std::to_string(first) + ", " + std::to_string(first) + " + " +
                      std::to_string(count) + ") are outside a buffer of " + std::to_string(elements) + " elements");
  }
}

}  // namespace sprig
