#include "vk_driver_cache.hpp"

#include <cstdio>
#include <cstring>

#include "vk_context.hpp"

namespace sprig::vk {

namespace {

// VkPipelineCacheHeaderVersionOne, the part every driver's data starts with.
struct VulkanCacheHeader {
  std::uint32_t header_bytes;
  std::uint32_t header_version;
  std::uint32_t vendor_id;
  std::uint32_t device_id;
  std::uint8_t uuid[VK_UUID_SIZE];
};
static_assert(sizeof(VulkanCacheHeader) == 32);

std::string hex(std::uint64_t value, int digits) {
  char text[17];
  std::snprintf(text, sizeof text, "%0*llx", digits, static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

DriverPipelineCache::DriverPipelineCache(DeviceContext& context, const DiskCache* disk)
    : context_(context), disk_(disk) {
  const DeviceCapabilities& caps = context.caps();
  key_ = hash_value(caps.vendor_id, 0xcbf29ce484222325ull);
  key_ = hash_value(caps.device_id, key_);
  key_ = hash_value(caps.driver_version, key_);
  key_ = hash_value(caps.pipeline_cache_uuid, key_);
  file_name_ = "vulkan-pipelines-" + hex(caps.vendor_id, 4) + "-" + hex(caps.device_id, 4) + "-" + hex(key_, 16) + ".bin";

  std::optional<std::vector<std::byte>> initial = disk_ ? load_for_this_device() : std::nullopt;
  cache_ = create(initial ? &*initial : nullptr);
  if (cache_ == VK_NULL_HANDLE && initial) {
    context_.warn("the driver rejected the pipeline cache in " + (disk_->path() / file_name_).string() +
                  "; starting with an empty one");
    cache_ = create(nullptr);
  }
  // Without a cache object pipelines are still created (VK_NULL_HANDLE is allowed), only
  // never saved.
}

DriverPipelineCache::~DriverPipelineCache() {
  save();
  if (cache_ != VK_NULL_HANDLE) context_.vk().vkDestroyPipelineCache(context_.device(), cache_, nullptr);
}

std::optional<std::vector<std::byte>> DriverPipelineCache::load_for_this_device() const {
  std::optional<std::vector<std::byte>> data = disk_->load(file_name_, key_);
  if (!data) return std::nullopt;
  const DeviceCapabilities& caps = context_.caps();
  VulkanCacheHeader header{};
  bool matches = data->size() >= sizeof header;
  if (matches) {
    std::memcpy(&header, data->data(), sizeof header);
    matches = header.header_bytes >= sizeof header && header.header_bytes <= data->size() &&
              header.header_version == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && header.vendor_id == caps.vendor_id &&
              header.device_id == caps.device_id &&
              std::memcmp(header.uuid, caps.pipeline_cache_uuid.data(), VK_UUID_SIZE) == 0;
  }
  if (!matches) {
    context_.warn("ignoring cache file " + (disk_->path() / file_name_).string() +
                  ": its Vulkan pipeline cache header is not this device's");
    return std::nullopt;
  }
  return data;
}

VkPipelineCache DriverPipelineCache::create(const std::vector<std::byte>* initial) const {
  VkPipelineCacheCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  if (initial) {
    info.initialDataSize = initial->size();
    info.pInitialData = initial->data();
  }
  VkPipelineCache cache = VK_NULL_HANDLE;
  if (context_.vk().vkCreatePipelineCache(context_.device(), &info, nullptr, &cache) != VK_SUCCESS) return VK_NULL_HANDLE;
  return cache;
}

void DriverPipelineCache::save() {
  if (disk_ == nullptr || cache_ == VK_NULL_HANDLE) return;
  if (created_.exchange(0, std::memory_order_relaxed) == 0) return;  // nothing new to save
  const VolkDeviceTable& vk = context_.vk();
  // Another process may have saved pipelines of its own since this one loaded: keep them.
  if (std::optional<std::vector<std::byte>> theirs = load_for_this_device()) {
    VkPipelineCache other = create(&*theirs);
    if (other != VK_NULL_HANDLE) {
      (void)vk.vkMergePipelineCaches(context_.device(), cache_, 1, &other);
      vk.vkDestroyPipelineCache(context_.device(), other, nullptr);
    }
  }
  std::size_t bytes = 0;
  if (vk.vkGetPipelineCacheData(context_.device(), cache_, &bytes, nullptr) != VK_SUCCESS || bytes == 0) return;
  std::vector<std::byte> data(bytes);
  VkResult result = vk.vkGetPipelineCacheData(context_.device(), cache_, &bytes, data.data());
  if (result != VK_SUCCESS) return;  // VK_INCOMPLETE: the cache grew meanwhile; the next save gets it
  data.resize(bytes);
  disk_->store(file_name_, key_, data);
}

}  // namespace sprig::vk
