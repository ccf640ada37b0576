#include "vk_diagnostics.hpp"

#include <cstdlib>
#include <string_view>

namespace sprig::vk {

namespace {

bool requested(bool option, bool from_environment, const char* variable) {
  if (option) return true;
  if (!from_environment) return false;
  const char* value = std::getenv(variable);
  return value != nullptr && std::string_view(value) == "1";
}

}  // namespace

Diagnostics resolve_diagnostics(const Options& options, const DeviceInfo& info, const DeviceCapabilities& caps) {
  Diagnostics d;
  if (requested(options.source_debug_info, options.source_debug_info_from_environment, "SPRIG_DEBUG_INFO")) {
    d.source_debug_info = caps.non_semantic_info;
    if (!d.source_debug_info) {
      d.warning = "source-level debug info (vk::Options::source_debug_info or SPRIG_DEBUG_INFO=1) is left out: the "
                  "device lacks VK_KHR_shader_non_semantic_info (" + info.name + ", " + info.driver_version +
                  "), so its kernels keep only OpLine and OpName";
    }
  }
  if (!requested(options.pipeline_statistics, options.pipeline_statistics_from_environment, "SPRIG_PROFILE")) {
    d.statistics_unavailable = "not requested (vk::Options::pipeline_statistics or SPRIG_PROFILE=1)";
  } else if (!caps.pipeline_executable_info) {
    d.statistics_unavailable = "the device does not expose VK_KHR_pipeline_executable_properties (" + info.name +
                               ", " + info.driver_version + ")";
  } else {
    d.pipeline_statistics = true;
  }
  return d;
}

}  // namespace sprig::vk
