// Several Devices at once, one host thread each: the same physical device opened twice (as
// a machine with several GPUs would give one Device per GPU) beside the simulator. Each
// Device keeps its own queue, pipelines, memory and budget, so one failing leaves the
// others' results intact.
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/sprig.hpp"
#include "thread_team.hpp"

using namespace sprig;

namespace {

constexpr std::size_t kSequences = 200;
constexpr std::size_t kWords = 256;

const auto& add_to_each() {
  static const auto k = kernel("several_devices_add", [](UInt value, Buffer<std::uint32_t> data) {
    UInt i = global_id().x();
    if_(i < data.size(), [&] { data[i] = data[i] + value; });
  }, workgroup(64));
  return k;
}

// Adds d + 1 to a buffer of d's, kSequences times; the number of wrong words.
std::size_t run_device(Device& device, std::size_t d) {
  const auto value = std::uint32_t(d + 1);
  auto sum = device.upload(std::vector<std::uint32_t>(kWords, std::uint32_t(d)));
  for (std::size_t s = 0; s < kSequences; ++s) device.run(add_to_each(), grid(kWords), value, sum);
  const auto expected = std::uint32_t(d + kSequences * value);
  std::size_t wrong = 0;
  for (std::uint32_t word : device.download(sum)) wrong += word != expected ? 1 : 0;
  return wrong;
}

// Two Vulkan Devices on device 0 and one simulator.
std::vector<std::unique_ptr<Device>> open_three() {
  std::vector<std::unique_ptr<Device>> devices;
  for (vk::Device& device : vk::Device::open_all("0,0")) devices.push_back(std::make_unique<vk::Device>(std::move(device)));
  devices.push_back(std::make_unique<sim::Device>());
  return devices;
}

}  // namespace

TEST_CASE("three devices driven from three threads at once each get their own right results", "[vulkan]") {
  std::vector<std::unique_ptr<Device>> devices = open_three();
  std::vector<std::atomic<std::size_t>> wrong(devices.size());
  test::run_on_threads(devices.size(), [&](std::size_t d) { wrong[d] = run_device(*devices[d], d); });
  for (std::size_t d = 0; d < devices.size(); ++d) {
    INFO(devices[d]->name());
    CHECK(wrong[d] == 0);
  }
}

TEST_CASE("a device that fails in its thread reports its own error and leaves the others' results whole",
          "[vulkan]") {
  std::vector<std::unique_ptr<Device>> devices = open_three();
  devices[1]->set_memory_budget(256);  // too small for the buffer: this device's allocation fails
  std::vector<std::atomic<std::size_t>> wrong(devices.size());
  std::vector<std::string> errors(devices.size());
  test::run_on_threads(devices.size(), [&](std::size_t d) {
    try {
      wrong[d] = run_device(*devices[d], d);
    } catch (const std::exception& e) {
      errors[d] = e.what();
    }
  });
  CHECK(errors[0].empty());
  CHECK(errors[2].empty());
  CHECK(wrong[0] == 0);
  CHECK(wrong[2] == 0);
  CHECK_THAT(errors[1], Catch::Contains("budget"));
}
