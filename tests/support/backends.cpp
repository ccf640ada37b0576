#include "backends.hpp"

namespace sprig::test {

vk::Device& vulkan() {
  static vk::Device device = [] {
    vk::Options options;
    options.validation = true;
    return vk::Device::best(options);
  }();
  return device;
}

sim::Device& simulator() {
  static sim::Device device;
  return device;
}

sprig::Device& device(Backend backend) {
  if (backend == Backend::Vulkan) return vulkan();
  return simulator();
}

}  // namespace sprig::test
