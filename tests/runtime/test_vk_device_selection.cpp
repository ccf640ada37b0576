// Listing Vulkan devices and choosing them: by type, index, name, UUID, lists, SPRIG_DEVICE.
#include <catch2/catch.hpp>

#include "sprig/runtime/vulkan.hpp"
#include "vk_device_select.hpp"
#include "vk_env_guard.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

namespace {

DeviceInfo fake(std::string name, DeviceKind kind) {
  DeviceInfo info;
  info.name = std::move(name);
  info.kind = kind;
  info.type = std::string(to_string(kind));
  return info;
}

}  // namespace

TEST_CASE("list_devices reports each Vulkan device with its limits") {
  std::vector<DeviceInfo> devices = vk::list_devices(test::test_options());
  REQUIRE_FALSE(devices.empty());
  for (const DeviceInfo& info : devices) {
    CHECK_FALSE(info.name.empty());
    CHECK(info.backend == "vulkan");
    CHECK(vk::device_kind_rank(info.kind) > 0);
    CHECK(info.min_subgroup_size <= info.subgroup_size);
    CHECK(info.subgroup_size <= info.max_subgroup_size);
    CHECK(info.max_shared_memory >= 16384);  // the Vulkan minimum
    CHECK(info.max_workgroup_invocations >= 128);
    CHECK(info.max_buffer_bytes >= (1u << 27));
  }
}

TEST_CASE("lavapipe reports subgroups of 8, 32 KiB shared memory, int64 and 64-bit atomics") {
  std::vector<DeviceInfo> devices = vk::list_devices(test::test_options());
  auto lavapipe = std::find_if(devices.begin(), devices.end(),
                               [](const DeviceInfo& d) { return d.name.find("llvmpipe") != std::string::npos; });
  if (lavapipe == devices.end()) return;  // another machine: nothing to compare with
  CHECK(lavapipe->kind == DeviceKind::Cpu);
  CHECK(lavapipe->driver == DriverId::MesaLlvmpipe);
  CHECK(lavapipe->quirks.has(Quirk::BarrierPassesSpinningSubgroup));
  CHECK(lavapipe->subgroup_size == 8);
  CHECK(lavapipe->max_shared_memory == 32768);
  CHECK(lavapipe->max_buffer_bytes == (1u << 27));
  CHECK(lavapipe->supported.int64);
  CHECK(lavapipe->supported.int64_atomics);
  CHECK(lavapipe->supported.subgroup_arithmetic);
  CHECK(lavapipe->timestamp_period_ns > 0);
}

TEST_CASE("the best device is discrete, then integrated, then virtual, then CPU") {
  std::vector<DeviceInfo> devices = {fake("cpu", DeviceKind::Cpu), fake("virtual", DeviceKind::Virtual),
                                     fake("igpu", DeviceKind::Integrated), fake("dgpu", DeviceKind::Discrete),
                                     fake("dgpu2", DeviceKind::Discrete)};
  std::vector<std::string> usable(devices.size());
  CHECK(vk::best_device_index(devices, usable) == 3);  // ties go to the first listed
  devices.erase(devices.begin() + 3, devices.end());
  CHECK(vk::best_device_index(devices, usable) == 2);
  devices.pop_back();
  CHECK(vk::best_device_index(devices, usable) == 1);
}

TEST_CASE("the best device skips devices sprig cannot use") {
  std::vector<DeviceInfo> devices = {fake("old gpu", DeviceKind::Discrete), fake("lavapipe", DeviceKind::Cpu)};
  CHECK(vk::best_device_index(devices, {"supports only Vulkan 1.1", ""}) == 1);
  CHECK_THROWS_WITH(vk::best_device_index(devices, {"supports only Vulkan 1.1", "has no compute queue"}),
                    Catch::Contains("old gpu: supports only Vulkan 1.1") && Catch::Contains("has no compute queue"));
  CHECK_THROWS_WITH(vk::best_device_index({}, {}), Catch::Contains("no Vulkan device found"));
}

TEST_CASE("SPRIG_DEVICE picks a device by index") {
  std::vector<DeviceInfo> devices = {fake("Alpha GPU", DeviceKind::Discrete), fake("llvmpipe (LLVM 15)", DeviceKind::Cpu)};
  CHECK(vk::device_index_from_override(devices, "1") == 1);
  CHECK_THROWS_WITH(vk::device_index_from_override(devices, "2"),
                    Catch::Contains("SPRIG_DEVICE=2") && Catch::Contains("1: llvmpipe (LLVM 15) (cpu)"));

  test::EnvGuard env("SPRIG_DEVICE", "0");
  vk::Device device = vk::Device::best(test::test_options());
  CHECK(device.name() == vk::list_devices(test::test_options()).at(0).name);
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("SPRIG_DEVICE picks a device by a name substring, ignoring case") {
  std::vector<DeviceInfo> devices = {fake("Alpha GPU", DeviceKind::Discrete), fake("llvmpipe (LLVM 15)", DeviceKind::Cpu)};
  CHECK(vk::device_index_from_override(devices, "LLVMPIPE") == 1);
  CHECK(vk::device_index_from_override(devices, "alpha") == 0);
  CHECK_THROWS_WITH(vk::device_index_from_override(devices, "beta"),
                    Catch::Contains("SPRIG_DEVICE=beta") && Catch::Contains("0: Alpha GPU (discrete)"));

  std::string first = vk::list_devices(test::test_options()).at(0).name;
  test::EnvGuard env("SPRIG_DEVICE", first.substr(0, 4).c_str());
  CHECK(vk::Device::best(test::test_options()).name().find(first.substr(0, 4)) != std::string::npos);
}

TEST_CASE("SPRIG_DEVICE naming no device makes best() fail with the list of devices") {
  test::EnvGuard env("SPRIG_DEVICE", "no-such-device");
  CHECK_THROWS_WITH(vk::Device::best(test::test_options()),
                    Catch::Contains("SPRIG_DEVICE=no-such-device") && Catch::Contains("available: 0: "));
}

TEST_CASE("open() takes an index or a name, and unknown ones are errors") {
  std::string first = vk::list_devices(test::test_options()).at(0).name;
  CHECK(vk::Device::open(0, test::test_options()).name() == first);
  CHECK(vk::Device::open(first, test::test_options()).name() == first);
  CHECK_THROWS_WITH(vk::Device::open(99, test::test_options()), Catch::Contains("there is no Vulkan device 99"));
  CHECK_THROWS_WITH(vk::Device::open(std::string("no-such-device"), test::test_options()),
                    Catch::Contains("no Vulkan device's name contains 'no-such-device'"));
}

TEST_CASE("a device list takes indices, UUIDs and names, repeats included, or all") {
  std::vector<DeviceInfo> devices = {fake("Alpha GPU", DeviceKind::Discrete), fake("llvmpipe (LLVM 15)", DeviceKind::Cpu)};
  devices[0].uuid = "0123abcd-0000-1111-2222-333344445555";
  devices[1].uuid = "ffffffff-0000-1111-2222-333344445555";
  using Indices = std::vector<std::size_t>;
  CHECK(vk::device_indices_from_list(devices, "all", "test") == Indices{0, 1});
  CHECK(vk::device_indices_from_list(devices, "1,0", "test") == Indices{1, 0});
  CHECK(vk::device_indices_from_list(devices, "0, 0 ,llvm", "test") == Indices{0, 0, 1});
  CHECK(vk::device_indices_from_list(devices, "FFFFFFFF-0000-1111-2222-333344445555", "test") == Indices{1});
  CHECK_THROWS_WITH(vk::device_indices_from_list(devices, "0,,1", "--devices"),
                    Catch::Contains("--devices: an empty entry in the device list"));
  CHECK_THROWS_WITH(vk::device_indices_from_list(devices, "0,7", "--devices"),
                    Catch::Contains("--devices: '7' is not a device index") && Catch::Contains("1: llvmpipe"));
  CHECK_THROWS_WITH(vk::device_indices_from_list(devices, "00000000-0000-1111-2222-333344445555", "--devices"),
                    Catch::Contains("no Vulkan device has the UUID 00000000-0000-1111-2222-333344445555"));
  CHECK_THROWS_WITH(vk::device_indices_from_list(devices, "beta", "--devices"),
                    Catch::Contains("--devices: no Vulkan device's name contains 'beta'"));
  CHECK(vk::device_index_from_override(devices, "1,0") == 1);  // best() takes the first entry
}

TEST_CASE("every Vulkan device reports a UUID that opens it") {
  std::vector<DeviceInfo> devices = vk::list_devices(test::test_options());
  for (const DeviceInfo& info : devices) {
    REQUIRE(info.uuid.size() == 36);
    CHECK(info.uuid[8] == '-');
  }
  std::vector<vk::Device> opened = vk::Device::open_all(devices.at(0).uuid, test::test_options());
  REQUIRE(opened.size() == 1);
  CHECK(opened[0].info().uuid == devices.at(0).uuid);
}

TEST_CASE("open_all opens a device twice when the list repeats it, and SPRIG_DEVICE lists devices") {
  std::vector<vk::Device> twice = vk::Device::open_all("0,0", test::test_options());
  REQUIRE(twice.size() == 2);
  CHECK(twice[0].name() == twice[1].name());
  CHECK_THROWS_WITH(vk::Device::open_all("0,no-such-device", test::test_options()),
                    Catch::Contains("device list '0,no-such-device'") && Catch::Contains("no-such-device"));
  {
    test::EnvGuard env("SPRIG_DEVICE", "0,0,0");
    CHECK(vk::Device::from_environment(test::test_options()).size() == 3);
  }
  test::EnvGuard env("SPRIG_DEVICE", "");
  CHECK(vk::Device::from_environment(test::test_options()).size() == 1);
}
