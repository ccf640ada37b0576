// Checking a Launch against its kernel and the device before anything is recorded: the
// number of bindings, each argument's kind, device, size and element type, the
// push-constant bytes and the workgroup counts. Errors name the kernel, the parameter and
// the line that launched it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sprig/runtime/launch.hpp"

namespace sprig::vk {

class DeviceContext;
class VulkanBuffer;

struct BoundBuffer {
  const ir::Param* param;
  VulkanBuffer* storage;
  std::size_t bytes;  // the RawBuffer's size: the descriptor's range
};

struct BoundUniform {
  const ir::Param* param;
  const std::vector<std::byte>* bytes;
};

struct CheckedLaunch {
  std::vector<BoundBuffer> buffers;
  std::vector<BoundUniform> uniforms;
};

CheckedLaunch check_launch(const Launch& launch, const DeviceContext& context);

}  // namespace sprig::vk
