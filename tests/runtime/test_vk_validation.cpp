// The Khronos validation layer: its messages become DeviceErrors at the next
// synchronisation point, and a missing layer is a clear error.
#include <catch2/catch.hpp>

#include <filesystem>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_env_guard.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

TEST_CASE("a validation message becomes a DeviceError at the next submit, before the GPU runs anything") {
  vk::Options options = test::test_options();
  options.validation = true;
  vk::Device device = vk::Device::best(options);
  // add_one's shader reads push constants; declaring none makes its pipeline layout
  // invalid, which only the validation layer notices.
  auto kernel = test::make_kernel("add_one#no_push_constants", {test::storage_param("src", 0, ir::Access::Read),
                                                                test::storage_param("dst", 1, ir::Access::Write)});
  RawBuffer a = test::upload_u32(device, {1}), b = test::upload_u32(device, {0});
  auto sequence = device.backend().sequence();
  sequence->launch(test::make_launch(kernel, 1, {a, b}));
  CHECK_THROWS_WITH(sequence->submit(),
                    Catch::Contains("Vulkan validation reported") && Catch::Contains("before submit") &&
                        Catch::Contains("push constant"));
  CHECK_THROWS_WITH(sequence->wait(), Catch::Contains("failed earlier"));
  std::vector<std::string> messages = device.take_validation_messages();
  CHECK_FALSE(messages.empty());
  CHECK(device.take_validation_messages().empty());
  // The device stays usable.
  RawBuffer c = test::upload_u32(device, {5});
  CHECK(test::download_u32(device, c) == std::vector<std::uint32_t>{5});
}

TEST_CASE("validation requested without the layer installed is a clear error") {
  // Point the loader's layer search at an empty directory.
  std::filesystem::path empty = std::filesystem::temp_directory_path() / "sprig-no-layers";
  std::filesystem::create_directories(empty);
  test::EnvGuard layer_path("VK_LAYER_PATH", empty.c_str());
  test::EnvGuard add_layer_path("VK_ADD_LAYER_PATH", nullptr);
  vk::Options options = test::test_options();
  options.validation = true;
  CHECK_THROWS_WITH(vk::Device::best(options),
                    Catch::Contains("VK_LAYER_KHRONOS_validation is not installed") &&
                        Catch::Contains("vulkan-validationlayers"));
}

TEST_CASE("without validation requested no layer is loaded and no messages are kept") {
  test::EnvGuard env("SPRIG_VALIDATION", nullptr);
  vk::Device device = vk::Device::best(test::test_options());
  RawBuffer a = test::upload_u32(device, {1, 2});
  CHECK(test::download_u32(device, a) == std::vector<std::uint32_t>{1, 2});
  CHECK(device.take_validation_messages().empty());
}
