#include "vk_device_select.hpp"

#include <algorithm>
#include <cctype>

#include "sprig/dsl/error.hpp"

namespace sprig::vk {

namespace {

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

int device_kind_rank(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::Discrete: return 4;
    case DeviceKind::Integrated: return 3;
    case DeviceKind::Virtual: return 2;
    case DeviceKind::Cpu: return 1;
    default: return 0;
  }
}

std::size_t best_device_index(const std::vector<DeviceInfo>& devices, const std::vector<std::string>& unusable_reasons) {
  std::size_t best = devices.size();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i < unusable_reasons.size() && !unusable_reasons[i].empty()) continue;
    if (best == devices.size() || device_kind_rank(devices[i].kind) > device_kind_rank(devices[best].kind)) best = i;
  }
  if (best != devices.size()) return best;
  if (devices.empty()) {
    throw DeviceError("no Vulkan device found (for a CPU device install mesa-vulkan-drivers, which provides lavapipe)");
  }
  std::string reasons;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    reasons += "\n  " + devices[i].name + ": " + (i < unusable_reasons.size() ? unusable_reasons[i] : "");
  }
  throw DeviceError("no usable Vulkan device:" + reasons);
}

std::size_t device_index_by_name(const std::vector<DeviceInfo>& devices, std::string_view name_part) {
  std::string wanted = lowercase(name_part);
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (lowercase(devices[i].name).find(wanted) != std::string::npos) return i;
  }
  throw DeviceError("no Vulkan device's name contains '" + std::string(name_part) +
                    "'; available: " + describe_devices(devices));
}

std::size_t device_index_from_override(const std::vector<DeviceInfo>& devices, std::string_view value) {
  if (all_digits(value)) {
    std::size_t index = value.size() > 9 ? devices.size() : std::stoul(std::string(value));
    if (index >= devices.size()) {
      throw DeviceError("SPRIG_DEVICE=" + std::string(value) + " is not a device index; available: " +
                        describe_devices(devices));
    }
    return index;
  }
  try {
    return device_index_by_name(devices, value);
  } catch (const DeviceError& e) {
    throw DeviceError("SPRIG_DEVICE=" + std::string(value) + ": " + e.what());
  }
}

std::string describe_devices(const std::vector<DeviceInfo>& devices) {
  if (devices.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(i) + ": " + devices[i].name + " (" + devices[i].type + ")";
  }
  return out;
}

}  // namespace sprig::vk
