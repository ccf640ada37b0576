// VK_ERROR_DEVICE_LOST, injected through vk::Options::faults where the driver could report
// it, becomes vk::DeviceLost; the device then refuses all work with that same error, and
// other devices are unaffected.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/sprig.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

auto add_one() {
  return kernel("add_one_everywhere", [](Buffer<std::uint32_t> d) {
    UInt i = global_id().x();
    if_(i < d.size(), [&] { d[i] = d[i] + 1u; });
  }, workgroup(64));
}

struct InjectedDevice {
  std::shared_ptr<vk::FaultInjector> faults = std::make_shared<vk::FaultInjector>();
  vk::Device device = vk::Device::best(options());

  vk::Options options() const {
    vk::Options o;
    o.faults = faults;
    return o;
  }
};

std::string device_lost_message(const std::function<void()>& operation) {
  try {
    operation();
  } catch (const vk::DeviceLost& e) {
    return e.what();
  }
  return "no DeviceLost";
}

}  // namespace

TEST_CASE("VK_ERROR_DEVICE_LOST while waiting for a sequence throws DeviceLost naming the call", "[vulkan]") {
  InjectedDevice injected;
  auto data = injected.device.upload(std::vector<std::uint32_t>(64, 1));
  injected.faults->fail(vk::FaultSite::FenceWait, vk::Fault::DeviceLost);
  Sequence sequence = injected.device.sequence();
  sequence.run(add_one(), grid(64), data);
  sequence.submit();
  std::string message = device_lost_message([&] { sequence.wait(); });
  CHECK_THAT(message, Contains("vkWaitForFences") && Contains("VK_ERROR_DEVICE_LOST") && Contains("is lost") &&
                          Contains("add_one_everywhere"));
}

TEST_CASE("VK_ERROR_DEVICE_LOST at submission throws DeviceLost", "[vulkan]") {
  InjectedDevice injected;
  auto data = injected.device.upload(std::vector<std::uint32_t>(64, 1));
  injected.faults->fail(vk::FaultSite::QueueSubmit, vk::Fault::DeviceLost);
  std::string message = device_lost_message([&] { injected.device.run(add_one(), grid(64), data); });
  CHECK_THAT(message, Contains("vkQueueSubmit") && Contains("VK_ERROR_DEVICE_LOST"));
}

TEST_CASE("VK_ERROR_DEVICE_LOST during a buffer transfer throws DeviceLost", "[vulkan]") {
  InjectedDevice injected;
  auto data = injected.device.upload(std::vector<std::uint32_t>(64, 1));
  injected.faults->fail(vk::FaultSite::FenceWait, vk::Fault::DeviceLost);
  std::string message = device_lost_message([&] { (void)injected.device.download(data); });
  CHECK_THAT(message, Contains("staging transfer") && Contains("VK_ERROR_DEVICE_LOST"));
}

TEST_CASE("a lost device refuses every later operation with the error it was lost with", "[vulkan]") {
  InjectedDevice injected;
  auto data = injected.device.upload(std::vector<std::uint32_t>(64, 1));
  injected.faults->fail(vk::FaultSite::FenceWait, vk::Fault::DeviceLost);
  const std::string first = device_lost_message([&] { injected.device.run(add_one(), grid(64), data); });
  REQUIRE_THAT(first, Contains("is lost"));
  injected.faults->clear();  // the driver would keep failing; the device must not even ask it
  CHECK(device_lost_message([&] { injected.device.run(add_one(), grid(64), data); }) == first);
  CHECK(device_lost_message([&] { (void)injected.device.alloc<std::uint32_t>(8); }) == first);
  CHECK(device_lost_message([&] { (void)injected.device.download(data); }) == first);
  CHECK(device_lost_message([&] { injected.device.write(data, std::span<const std::uint32_t>()); }) == first);
  CHECK(injected.faults->calls(vk::FaultSite::QueueSubmit) == 2);  // the upload's and the lost run's, no more
}

TEST_CASE("a lost device does not disturb another device", "[vulkan]") {
  InjectedDevice injected;
  auto lost_data = injected.device.upload(std::vector<std::uint32_t>(64, 1));
  injected.faults->fail(vk::FaultSite::FenceWait, vk::Fault::DeviceLost);
  REQUIRE_THROWS_AS(injected.device.run(add_one(), grid(64), lost_data), vk::DeviceLost);

  vk::Device other = vk::Device::best();
  auto data = other.upload(std::vector<std::uint32_t>(64, 1));
  other.run(add_one(), grid(64), data);
  CHECK(other.download(data) == std::vector<std::uint32_t>(64, 2));
}
