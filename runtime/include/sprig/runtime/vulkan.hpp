// The Vulkan backend: device discovery and selection, and sprig::vk::Device.
#pragma once

#include <string>
#include <vector>

#include "sprig/runtime/device.hpp"

namespace sprig::vk {

struct Options {
  // Enable VK_LAYER_KHRONOS_validation and turn every message it reports into a DeviceError.
  // Default: on when the environment variable SPRIG_VALIDATION is 1.
  bool validation = false;
  bool validation_from_environment = true;
};

// Every Vulkan physical device the loader reports, in the loader's order.
std::vector<DeviceInfo> list_devices(const Options& options = {});

class Device : public sprig::Device {
 public:
  // The best device: discrete > integrated > virtual > CPU (lavapipe). The environment
  // variable SPRIG_DEVICE (an index into list_devices() or a substring of the name)
  // overrides the choice.
  static Device best(const Options& options = {});
  // Device number `index` of list_devices().
  static Device open(std::size_t index, const Options& options = {});
  // The first device whose name contains `name_part`.
  static Device open(const std::string& name_part, const Options& options = {});

  // Validation messages reported so far (and cleared), when validation is on.
  std::vector<std::string> take_validation_messages();

 private:
  using sprig::Device::Device;
};

}  // namespace sprig::vk
