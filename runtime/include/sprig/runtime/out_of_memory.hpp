// A device that has no memory left for a buffer: the driver refused the allocation, or its
// VK_EXT_memory_budget ruled every heap out (on the simulator: the host had none). A caller
// that can do with less (fewer records in flight, smaller batches) catches this one and
// lets every other DeviceError through.
#pragma once

#include "sprig/dsl/error.hpp"

namespace sprig {

class OutOfDeviceMemory : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

}  // namespace sprig
