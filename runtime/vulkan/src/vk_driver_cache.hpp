// The driver's pipeline cache (VkPipelineCache) of one device, loaded from and saved to the
// disk cache, so that a later process gets its compiled pipelines back instead of paying
// the driver's shader compiler again. Data is handed to the driver only when its Vulkan
// header names this device (vendor, device and pipelineCacheUUID); anything else is
// ignored with a warning. Saving merges what another process saved meanwhile.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include <volk.h>

#include "vk_disk_cache.hpp"

namespace sprig::vk {

class DeviceContext;

class DriverPipelineCache {
 public:
  // `disk` null: an in-memory cache only.
  DriverPipelineCache(DeviceContext& context, const DiskCache* disk);
  ~DriverPipelineCache();  // saves, when pipelines were created since loading
  DriverPipelineCache(const DriverPipelineCache&) = delete;
  DriverPipelineCache& operator=(const DriverPipelineCache&) = delete;

  VkPipelineCache handle() const { return cache_; }
  void pipeline_created() { created_.fetch_add(1, std::memory_order_relaxed); }
  // Writes the cache to disk now (also done on destruction).
  void save();

 private:
  // The file's data if its Vulkan header is this device's; warns and returns nullopt if not.
  std::optional<std::vector<std::byte>> load_for_this_device() const;
  VkPipelineCache create(const std::vector<std::byte>* initial) const;

  DeviceContext& context_;
  const DiskCache* disk_;
  std::string file_name_;
  std::uint64_t key_ = 0;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::atomic<std::uint64_t> created_{0};
};

}  // namespace sprig::vk
