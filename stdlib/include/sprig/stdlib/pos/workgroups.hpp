// Workgroup sizes of the plotting kernels: 256 invocations, what they were written and
// tuned for, where the device allows it, and the most it allows below that on small GPUs.
// None of the kernels depends on the size for its results.
#pragma once

#include <cstdint>

#include "sprig/runtime/backend.hpp"
#include "sprig/stdlib/tiling.hpp"

namespace sprig::pos {

// Kernels of one invocation per element (F1, bucketing, the Subspace renumbering, encoding).
std::uint32_t elementwise_invocations(const DeviceInfo& device);

// find_matches: one workgroup per pair of buckets.
std::uint32_t match_invocations(const DeviceInfo& device);

}  // namespace sprig::pos
