#include "vk_feature_check.hpp"

#include <string>
#include <vector>

#include "sprig/dsl/error.hpp"
#include "sprig/dsl/layout.hpp"

namespace sprig::vk {

namespace {

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : "; ") + part;
  return out;
}

void check_features(const ir::Features& need, const ir::Features& have, std::vector<std::string>& missing) {
  struct Named {
    bool ir::Features::*flag;
    const char* what;
  };
  static const Named features[] = {
      {&ir::Features::int64, "64-bit integers (shaderInt64)"},
      {&ir::Features::int64_atomics, "64-bit atomics (shaderBufferInt64Atomics and shaderSharedInt64Atomics)"},
      {&ir::Features::subgroup_basic, "subgroup operations (VK_SUBGROUP_FEATURE_BASIC_BIT in compute)"},
      {&ir::Features::subgroup_vote, "subgroup vote (VK_SUBGROUP_FEATURE_VOTE_BIT)"},
      {&ir::Features::subgroup_ballot, "subgroup ballot (VK_SUBGROUP_FEATURE_BALLOT_BIT)"},
      {&ir::Features::subgroup_shuffle, "subgroup shuffle (VK_SUBGROUP_FEATURE_SHUFFLE_BIT)"},
      {&ir::Features::subgroup_shuffle_relative, "relative subgroup shuffle (VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT)"},
      {&ir::Features::subgroup_arithmetic, "subgroup arithmetic (VK_SUBGROUP_FEATURE_ARITHMETIC_BIT)"},
  };
  for (const Named& f : features) {
    if (need.*f.flag && !(have.*f.flag)) missing.push_back(std::string("needs ") + f.what);
  }
}

void check_subgroup_size(const ir::Kernel& kernel, const DeviceInfo& device, std::uint32_t max_workgroup_subgroups,
                         std::vector<std::string>& missing) {
  std::uint32_t size = kernel.features.required_subgroup_size;
  if (size == 0) return;
  std::string wanted = "requires subgroup size " + std::to_string(size);
  if ((size & (size - 1)) != 0) {
    missing.push_back(wanted + ", which is not a power of two");
  } else if (size < device.min_subgroup_size || size > device.max_subgroup_size) {
    std::string range = device.min_subgroup_size == device.max_subgroup_size
                            ? std::to_string(device.min_subgroup_size)
                            : std::to_string(device.min_subgroup_size) + ".." + std::to_string(device.max_subgroup_size);
    missing.push_back(wanted + ", but the device runs compute subgroups of " + range +
                      " (VK_EXT_subgroup_size_control / Vulkan 1.3)");
  } else if (max_workgroup_subgroups != 0) {
    std::uint64_t invocations = std::uint64_t(kernel.workgroup_size[0]) * kernel.workgroup_size[1] * kernel.workgroup_size[2];
    if ((invocations + size - 1) / size > max_workgroup_subgroups) {
      missing.push_back(wanted + " with " + std::to_string(invocations) + " invocations per workgroup, more than the " +
                        std::to_string(max_workgroup_subgroups) + " subgroups a workgroup may hold");
    }
  }
}

void check_workgroup(const ir::Kernel& kernel, const DeviceInfo& device, std::vector<std::string>& missing) {
  const auto& size = kernel.workgroup_size;
  std::uint64_t invocations = 1;
  static const char* axis[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    invocations *= size[i];
    if (size[i] == 0) missing.push_back(std::string("has workgroup size 0 in ") + axis[i]);
    if (size[i] > device.max_workgroup_size[i]) {
      missing.push_back(std::string("has workgroup size ") + std::to_string(size[i]) + " in " + axis[i] +
                        ", above the device's " + std::to_string(device.max_workgroup_size[i]));
    }
  }
  if (invocations > device.max_workgroup_invocations) {
    missing.push_back("has " + std::to_string(invocations) + " invocations per workgroup, above the device's " +
                      std::to_string(device.max_workgroup_invocations));
  }
  std::uint64_t shared_bytes = 0;
  for (const ir::SharedVariable& variable : kernel.shared) {
    shared_bytes += ir::layout_of(variable.type, ir::LayoutRule::Std430).size;
  }
  if (shared_bytes > device.max_shared_memory) {
    missing.push_back("uses " + std::to_string(shared_bytes) + " bytes of shared memory, above the device's " +
                      std::to_string(device.max_shared_memory));
  }
}

}  // namespace

void check_kernel_supported(const ir::Kernel& kernel, const DeviceInfo& device, std::uint32_t max_workgroup_subgroups) {
  std::vector<std::string> missing;
  check_features(kernel.features, device.supported, missing);
  check_subgroup_size(kernel, device, max_workgroup_subgroups, missing);
  check_workgroup(kernel, device, missing);
  if (missing.empty()) return;
  throw DeviceError(describe("cannot run on " + device.name + ": " + join(missing), kernel.name, kernel.loc));
}

}  // namespace sprig::vk
