// Which instructions SubgroupScan (subgroup_scan.hpp) scans with on a device. The choice is
// made per driver by measurement and keyed into the cache names of the kernels that take it.
//
// The subgroup scan instructions (OpGroupNonUniformIAdd InclusiveScan, ...) are what a
// driver should do best, but on the NVIDIA driver (580, H200) they cost the look-back scan
// at 2^28 elements about 0.16 ms of its 1.0 ms: five shuffle-ups in their place took it to
// 0.83 ms (docs/benchmarks.md, "Subgroup scans as shuffle-ups"). Elsewhere nothing has been
// measured, so the instructions stay. The radix sort keeps the instructions everywhere: with
// shuffle-ups its pairs took 6% longer on the H100 and its keys no less.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sprig/runtime/backend.hpp"

namespace sprig::detail {

struct SubgroupScanForm {
  // 0: the subgroup scan instructions where the operator has one. Otherwise a
  // Hillis-Steele scan of OpGroupNonUniformShuffleUp steps, unrolled for subgroups of up to
  // this many lanes (a power of two), for every operator on scalars and vectors.
  std::uint32_t shuffle_up_lanes = 0;
  std::string key() const { return shuffle_up_lanes ? "/shuffle_up" + std::to_string(shuffle_up_lanes) : ""; }
};

// The form `device` runs best: shuffle-ups on the NVIDIA proprietary driver, the
// instructions elsewhere. SPRIG_SUBGROUP_SCAN=instruction or =shuffle-up overrides it (for
// measurements and tests); any other value throws std::invalid_argument.
inline SubgroupScanForm subgroup_scan_form(const DeviceInfo& device) {
  // Unrolled for the largest subgroup the device may run a kernel with; smaller subgroups
  // only skip the last steps (no lane is far enough from lane 0 to take them).
  const SubgroupScanForm shuffle_up{std::bit_ceil(std::max(1u, device.max_subgroup_size))};
  if (const char* value = std::getenv("SPRIG_SUBGROUP_SCAN"); value && *value) {
    const std::string_view v = value;
    if (v == "instruction") return {};
    if (v == "shuffle-up") return shuffle_up;
    throw std::invalid_argument("SPRIG_SUBGROUP_SCAN=" + std::string(v) +
                                ": expected \"instruction\" or \"shuffle-up\"");
  }
  return device.driver == DriverId::NvidiaProprietary ? shuffle_up : SubgroupScanForm{};
}

}  // namespace sprig::detail
