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

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// 8-4-4-4-12 hexadecimal digits.
bool looks_like_uuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
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

std::size_t device_index_from_entry(const std::vector<DeviceInfo>& devices, std::string_view entry) {
  if (all_digits(entry)) {
    std::size_t index = entry.size() > 9 ? devices.size() : std::stoul(std::string(entry));
    if (index >= devices.size()) {
      throw DeviceError("'" + std::string(entry) + "' is not a device index; available: " + describe_devices(devices));
    }
    return index;
  }
  if (looks_like_uuid(entry)) {
    std::string wanted = lowercase(entry);
    for (std::size_t i = 0; i < devices.size(); ++i) {
      if (devices[i].uuid == wanted) return i;
    }
    throw DeviceError("no Vulkan device has the UUID " + wanted + "; available: " + describe_devices(devices));
  }
  return device_index_by_name(devices, entry);
}

std::vector<std::size_t> device_indices_from_list(const std::vector<DeviceInfo>& devices, std::string_view list,
                                                  std::string_view what) {
  std::vector<std::size_t> indices;
  if (trimmed(list) == "all") {
    if (devices.empty()) throw DeviceError(std::string(what) + ": no Vulkan device found");
    for (std::size_t i = 0; i < devices.size(); ++i) indices.push_back(i);
    return indices;
  }
  std::size_t start = 0;
  while (true) {
    std::size_t comma = list.find(',', start);
    std::string_view entry = trimmed(list.substr(start, comma == std::string_view::npos ? list.npos : comma - start));
    if (entry.empty()) throw DeviceError(std::string(what) + ": an empty entry in the device list");
    try {
      indices.push_back(device_index_from_entry(devices, entry));
    } catch (const DeviceError& e) {
      throw DeviceError(std::string(what) + ": " + e.what());
    }
    if (comma == std::string_view::npos) return indices;
    start = comma + 1;
  }
}

std::size_t device_index_from_override(const std::vector<DeviceInfo>& devices, std::string_view value) {
  return device_indices_from_list(devices, value, "SPRIG_DEVICE=" + std::string(value)).front();
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
