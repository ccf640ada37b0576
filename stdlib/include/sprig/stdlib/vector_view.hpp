// A buffer of 4-byte scalars seen as 4-vectors over the same memory, for kernels whose
// loads or stores move 16 bytes per instruction.
#pragma once

#include <algorithm>

#include "sprig/runtime/buffer.hpp"
#include "sprig/dsl.hpp"

namespace sprig::detail {

// `buffer`'s first size/4*4 elements as 4-vectors (the same memory). The buffer must hold
// at least 4 elements: a view of no whole vector would reach past its end.
template <class T>
DeviceBuffer<vec<T, 4>> as_vectors(const DeviceBuffer<T>& buffer) {
  std::size_t vectors = buffer.size() / 4;
  return DeviceBuffer<vec<T, 4>>(
      RawBuffer(buffer.shared_storage(), std::max<std::size_t>(vectors, 1) * 16, device_type<vec<T, 4>>()), vectors);
}

}  // namespace sprig::detail
