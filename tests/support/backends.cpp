#include "backends.hpp"

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <memory>
#include <mutex>

namespace sprig::test {

bool backend_enabled(Backend backend) {
  const char* listed = std::getenv("SPRIG_TEST_BACKENDS");
  if (listed == nullptr || *listed == '\0') return true;
  std::string wanted = backend == Backend::Vulkan ? "vulkan" : "simulator";
  std::string list = std::string(",") + listed + ",";
  return list.find("," + wanted + ",") != std::string::npos;
}

vk::Device& vulkan() {
  if (!backend_enabled(Backend::Vulkan))
    throw std::runtime_error("this test needs Vulkan, which SPRIG_TEST_BACKENDS leaves out: tag it [vulkan]");
  // Validation follows SPRIG_VALIDATION, which ctest sets for every test; a machine without
  // the layer can still run a test binary by hand.
  static vk::Device device = vk::Device::best();
  return device;
}

// The both-backend tests' simulator is in test mode: any race, out-of-bounds access or
// barrier divergence in a kernel under test fails the test.
sim::Device& simulator() {
  static sim::Device device([] {
    sim::Options options;
    options.strict = true;
    return options;
  }());
  return device;
}

sim::Device& simulator(std::uint32_t subgroup_size) {
  static std::map<std::uint32_t, std::unique_ptr<sim::Device>> devices;
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  auto& d = devices[subgroup_size];
  if (!d) {
    sim::Options options;
    options.subgroup_size = subgroup_size;
    d = std::make_unique<sim::Device>(options);
  }
  return *d;
}

sprig::Device& device(Backend backend) {
  if (backend == Backend::Vulkan) return vulkan();
  return simulator();
}

}  // namespace sprig::test
