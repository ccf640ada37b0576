// The debugging and profiling aids a device was asked for (vk::Options or the environment)
// weighed against what it offers: source-level debug info in kernels' SPIR-V, and driver
// statistics of their pipelines (docs/debugging.md).
#pragma once

#include <string>

#include "sprig/runtime/vulkan.hpp"
#include "vk_physical_device.hpp"

namespace sprig::vk {

struct Diagnostics {
  bool source_debug_info = false;    // kernels carry NonSemantic.Shader.DebugInfo.100
  bool pipeline_statistics = false;  // pipelines capture the driver's statistics
  // Why there are no statistics when pipeline_statistics is false.
  std::string statistics_unavailable;
  // What to tell the user about an aid that was asked for and is left out; empty if none.
  std::string warning;
};

Diagnostics resolve_diagnostics(const Options& options, const DeviceInfo& info, const DeviceCapabilities& caps);

}  // namespace sprig::vk
