// sprig::vk's public entry points: listing and opening devices, and the Vulkan-specific
// queries of vk::Device.
#include <algorithm>
#include <cstdlib>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_context.hpp"
#include "vk_device.hpp"
#include "vk_device_select.hpp"
#include "vk_instance.hpp"
#include "vk_physical_device.hpp"
#include "vk_pipeline_cache.hpp"
#include "vk_sequence.hpp"

namespace sprig::vk {

namespace {

struct Discovery {
  std::shared_ptr<Instance> instance;
  std::vector<PhysicalDevice> devices;
  std::vector<DeviceInfo> infos;
  std::vector<std::string> unusable;
};

Discovery discover(const Options& options) {
  Discovery found;
  found.instance = Instance::create(validation_requested(options));
  for (VkPhysicalDevice handle : found.instance->physical_devices()) {
    found.devices.push_back(describe_physical_device(handle, found.instance->api_version()));
    found.infos.push_back(found.devices.back().info);
    found.unusable.push_back(found.devices.back().unusable_reason);
  }
  return found;
}

std::shared_ptr<DeviceBackend> open_discovered(Discovery& found, std::size_t index, const Options& options) {
  PhysicalDevice& chosen = found.devices.at(index);
  if (!chosen.unusable_reason.empty()) {
    throw DeviceError("cannot use Vulkan device " + std::to_string(index) + " (" + chosen.info.name +
                      "): it " + chosen.unusable_reason);
  }
  chosen.info.quirks = (chosen.info.quirks | options.forced_workarounds).without(options.disabled_workarounds);
  hide_extensions(chosen.caps, options.hidden_extensions);
  auto context = DeviceContext::create(found.instance, std::move(chosen), options);
  return std::make_shared<VulkanDevice>(std::move(context));
}

VulkanDevice& vulkan_backend(sprig::Device& device) {
  auto* backend = dynamic_cast<VulkanDevice*>(&device.backend());
  if (backend == nullptr) throw DeviceError("not a Vulkan device");
  return *backend;
}

}  // namespace

std::vector<DeviceInfo> list_devices(const Options& options) { return discover(options).infos; }

Device Device::best(const Options& options) {
  Discovery found = discover(options);
  const char* override_value = std::getenv("SPRIG_DEVICE");
  std::size_t index = override_value != nullptr && *override_value != '\0'
                          ? device_index_from_override(found.infos, override_value)
                          : best_device_index(found.infos, found.unusable);
  return Device(open_discovered(found, index, options));
}

Device Device::open(std::size_t index, const Options& options) {
  Discovery found = discover(options);
  if (index >= found.devices.size()) {
    throw DeviceError("there is no Vulkan device " + std::to_string(index) + "; available: " +
                      describe_devices(found.infos));
  }
  return Device(open_discovered(found, index, options));
}

Device Device::open(const std::string& name_part, const Options& options) {
  Discovery found = discover(options);
  return Device(open_discovered(found, device_index_by_name(found.infos, name_part), options));
}

namespace {

// Each Device gets an instance of its own, as best() and open() give it, so that validation
// messages stay with the device that caused them (docs/threading.md).
std::vector<std::shared_ptr<DeviceBackend>> open_listed(const std::vector<std::size_t>& indices,
                                                        const Options& options) {
  std::vector<std::shared_ptr<DeviceBackend>> backends;
  for (std::size_t index : indices) {
    Discovery found = discover(options);
    backends.push_back(open_discovered(found, index, options));
  }
  return backends;
}

}  // namespace

std::vector<Device> Device::open_all(const std::string& list, const Options& options) {
  std::vector<Device> devices;
  for (auto& backend :
       open_listed(device_indices_from_list(discover(options).infos, list, "device list '" + list + "'"), options)) {
    devices.push_back(Device(std::move(backend)));
  }
  return devices;
}

std::vector<Device> Device::from_environment(const Options& options) {
  const char* value = std::getenv("SPRIG_DEVICE");
  std::vector<Device> devices;
  if (value == nullptr || *value == '\0') {
    devices.push_back(best(options));
    return devices;
  }
  std::string what = "SPRIG_DEVICE=" + std::string(value);
  for (auto& backend : open_listed(device_indices_from_list(discover(options).infos, value, what), options)) {
    devices.push_back(Device(std::move(backend)));
  }
  return devices;
}

std::vector<std::string> Device::take_validation_messages() {
  Instance& instance = vulkan_backend(*this).context().instance();
  return instance.validation() ? instance.log().take() : std::vector<std::string>{};
}

// The context hands out mutable parts only, hence the cast in these const queries.
std::vector<KernelTimes> Device::kernel_times() const {
  return vulkan_backend(const_cast<Device&>(*this)).context().pipelines().times();
}

std::optional<KernelTimes> Device::kernel_times(const std::string& kernel_name) const {
  for (KernelTimes& times : kernel_times()) {
    if (times.kernel == kernel_name) return times;
  }
  return std::nullopt;
}

std::optional<KernelTimes> Device::kernel_times(std::uint64_t kernel_hash) const {
  for (KernelTimes& times : kernel_times()) {
    if (times.hash == kernel_hash) return times;
  }
  return std::nullopt;
}

MemoryStats Device::memory_stats() const {
  return vulkan_backend(const_cast<Device&>(*this)).context().memory().stats();
}

bool Device::source_debug_info() const {
  return vulkan_backend(const_cast<Device&>(*this)).context().diagnostics().source_debug_info;
}

bool Device::pipeline_statistics() const {
  return vulkan_backend(const_cast<Device&>(*this)).context().diagnostics().pipeline_statistics;
}

std::size_t barrier_count(const SequenceBackend& sequence) {
  auto* vulkan = dynamic_cast<const VulkanSequence*>(&sequence);
  if (vulkan == nullptr) throw DeviceError("barrier_count: not a Vulkan sequence");
  return vulkan->barrier_count();
}

}  // namespace sprig::vk
