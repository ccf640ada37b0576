// Simulator stand-ins for real GPUs: the limits stdlib algorithms take their shapes from
// (subgroup size, shared memory per workgroup, invocations per workgroup), as data. The
// figures are what the Vulkan drivers of those GPUs report (vulkan.gpuinfo.org lists
// them per device) or what the vendors publish; where a figure is an assumption, its
// comment says so.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/simulator/device.hpp"

namespace profiles_test {

struct DeviceProfile {
  std::string name;
  std::uint32_t subgroup_size;
  std::uint32_t max_shared_memory;  // bytes per workgroup
  std::uint32_t max_workgroup_invocations;
  std::array<std::uint32_t, 3> max_workgroup_size;
};

inline constexpr std::uint32_t KiB = 1024;

inline const std::vector<DeviceProfile>& device_profiles() {
  static const std::vector<DeviceProfile> all{
      // NVIDIA H100 under Vulkan: 32-lane warps, maxComputeSharedMemorySize 49152 (the
      // static per-block limit of the CUDA programming guide), 1024 invocations.
      {"h100", 32, 48 * KiB, 1024, {1024, 1024, 64}},
      // The H100's 228 KiB of shared memory per SM (CUDA programming guide, compute
      // capability 9.0; a block may opt in to 227 KiB of it): the largest tile budget.
      {"h100-opt-in", 32, 228 * KiB, 1024, {1024, 1024, 64}},
      // AMD GCN/CDNA and RDNA in wave64 (RADV, AMDVLK): 64-lane waves, 64 KiB of LDS per
      // workgroup, 1024 invocations.
      {"amd-wave64", 64, 64 * KiB, 1024, {1024, 1024, 1024}},
      // Intel Xe/Gen (ANV): subgroups of 8 to 32 lanes, the compiler's pick (minSubgroupSize 8
      // taken here, the narrowest), 64 KiB of SLM, 1024 invocations.
      {"intel-simd8", 8, 64 * KiB, 1024, {1024, 1024, 1024}},
      // Apple M1 (Metal feature set tables: 32 KiB of threadgroup memory, 1024 threads per
      // threadgroup; 32-wide SIMD groups).
      {"apple-m1", 32, 32 * KiB, 1024, {1024, 1024, 1024}},
      // Arm Mali Valhall (G710/G610): 16-wide warps, 32 KiB of shared memory. The 512
      // invocations are an assumption from memory of gpuinfo reports, not re-checked.
      {"mali-valhall", 16, 32 * KiB, 512, {512, 512, 512}},
      // Qualcomm Adreno 6xx/7xx: 64-lane waves (wave128 too), 32 KiB of shared memory, 1024
      // invocations.
      {"adreno", 64, 32 * KiB, 1024, {1024, 1024, 1024}},
      // Raspberry Pi 5 (Broadcom V3D 7.1, v3dv): 16-lane subgroups, 16 KiB of shared memory,
      // 256 invocations per workgroup.
      {"raspberry-pi-5", 16, 16 * KiB, 256, {256, 256, 256}},
      // The least a Vulkan 1.1 device may report (Vulkan specification, "Required Limits":
      // 16 KiB of shared memory, 128 invocations, 128 x 128 x 64) with SwiftShader's
      // 4-lane subgroups.
      {"vulkan-minimum", 4, 16 * KiB, 128, {128, 128, 64}},
  };
  return all;
}

inline sprig::sim::Options options_of(const DeviceProfile& p) {
  sprig::sim::Options o;
  o.subgroup_size = p.subgroup_size;
  o.max_shared_memory = p.max_shared_memory;
  o.max_workgroup_invocations = p.max_workgroup_invocations;
  o.max_workgroup_size = p.max_workgroup_size;
  // The analyses are not the point here and cost most of the time; out-of-bounds accesses
  // and barrier divergence still fail a launch.
  o.analyses = sprig::sim::AnalysisOptions::none();
  o.strict = true;
  return o;
}

// One simulator per profile, shared by the test cases.
inline sprig::sim::Device& device_of(const DeviceProfile& p) {
  static std::vector<std::unique_ptr<sprig::sim::Device>> devices(device_profiles().size());
  const auto index = std::size_t(&p - device_profiles().data());
  if (!devices[index]) devices[index] = std::make_unique<sprig::sim::Device>(options_of(p));
  return *devices[index];
}

// Runs `check(profile, device)` on every profile, naming the profile in any failure.
template <class Check>
void on_every_profile(Check&& check) {
  for (const DeviceProfile& p : device_profiles()) {
    INFO("profile " << p.name << " (subgroup " << p.subgroup_size << ", " << p.max_shared_memory / KiB
                    << " KiB shared, " << p.max_workgroup_invocations << " invocations)");
    check(p, device_of(p));
  }
}

}  // namespace profiles_test
