// Pipelines by kernel hash, per device. The hash covers a kernel's semantics only, so two
// kernels that differ in names or source lines share a pipeline, except on a device whose
// kernels carry source-level debug info, where the names and lines join the key. Each pipeline is built
// once even when several threads ask for it at the same time. Behind the in-memory map, the
// disk cache (Options::cache_directory) keeps SPIR-V and the driver's compiled pipelines
// for later processes.
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "sprig/dsl/ir.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_disk_cache.hpp"
#include "vk_driver_cache.hpp"
#include "vk_pipeline.hpp"

namespace sprig::vk {

class DeviceContext;

class PipelineCache {
 public:
  explicit PipelineCache(DeviceContext& context);

  // The pipeline for `kernel`, built on first use. A kernel with hash 0 (not computed) is
  // built every time and not cached. A failed build is not cached: the next call retries.
  std::shared_ptr<const Pipeline> get(const ir::Kernel& kernel);

  // One entry per pipeline built, in build order.
  std::vector<KernelTimes> times() const;

 private:
  using Future = std::shared_future<std::shared_ptr<const Pipeline>>;

  DeviceContext& context_;
  std::optional<DiskCache> disk_;
  DriverPipelineCache driver_cache_;  // after disk_: it loads from it
  mutable std::mutex mutex_;
  std::unordered_map<std::uint64_t, Future> pipelines_;
  std::vector<KernelTimes> times_;
};

}  // namespace sprig::vk
