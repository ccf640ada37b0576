// Choosing Vulkan devices: by type (discrete > integrated > virtual > CPU), by index, by
// name, by UUID, or by the SPRIG_DEVICE environment variable. Pure functions over DeviceInfo.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sprig/runtime/backend.hpp"

namespace sprig::vk {

// Higher is preferred: discrete 4, integrated 3, virtual 2, cpu 1, anything else 0.
int device_kind_rank(DeviceKind kind);

// The highest-ranked device whose unusable_reasons entry is empty; the first listed wins
// ties. Throws DeviceError when there is none, giving the reasons.
std::size_t best_device_index(const std::vector<DeviceInfo>& devices, const std::vector<std::string>& unusable_reasons);

// The first device whose name contains `name_part`, ignoring case; throws if none does.
std::size_t device_index_by_name(const std::vector<DeviceInfo>& devices, std::string_view name_part);

// One entry of a device list: a decimal index into `devices`, a UUID (8-4-4-4-12 hex
// digits, any case), or else a name substring (case-insensitive, the first match).
std::size_t device_index_from_entry(const std::vector<DeviceInfo>& devices, std::string_view entry);

// A device list: "all" (every device, in the loader's order), or entries separated by
// commas ("0,2", "H100", a UUID). An entry may repeat, to open one device several times.
// Throws DeviceError naming `what` (e.g. "SPRIG_DEVICE=...") and the entry that fails.
std::vector<std::size_t> device_indices_from_list(const std::vector<DeviceInfo>& devices, std::string_view list,
                                                  std::string_view what);

// SPRIG_DEVICE for one device: the first entry of its list.
std::size_t device_index_from_override(const std::vector<DeviceInfo>& devices, std::string_view value);

// "0: llvmpipe (cpu), 1: ..." for error messages.
std::string describe_devices(const std::vector<DeviceInfo>& devices);

}  // namespace sprig::vk
