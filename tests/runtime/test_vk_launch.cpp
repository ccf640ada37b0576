// Single launches: arguments (buffers, push constants, uniforms), kernel features and
// subgroup sizes, and the errors a wrong launch gets.
#include <catch2/catch.hpp>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_feature_check.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

namespace {

void run(vk::Device& device, Launch launch) {
  auto sequence = device.backend().sequence();
  sequence->launch(std::move(launch));
  sequence->submit();
  sequence->wait();
}

std::shared_ptr<ir::Kernel> subgroup_size_kernel(std::uint32_t required,
                                                 std::source_location loc = std::source_location::current()) {
  auto kernel = test::make_kernel("subgroup_size#" + std::to_string(required),
                                  {test::storage_param("sizes", 0, ir::Access::Write)}, 0, 0, loc);
  kernel->features.subgroup_basic = true;
  kernel->features.required_subgroup_size = required;
  return kernel;
}

}  // namespace

TEST_CASE("a launch with push constants and a uniform computes y = x * factor + offset") {
  vk::Device& device = test::shared_device();
  RawBuffer x = test::upload_u32(device, test::iota_u32(200));
  RawBuffer y = device.backend().allocate(200 * 4, ir::scalar_type(ir::ScalarKind::U32), MemoryKind::DeviceLocal);
  auto kernel = test::scale_offset_kernel();
  kernel->params[2].type = ir::struct_type("Constants", {{"offset", ir::scalar_type(ir::ScalarKind::U32)}});
  std::vector<std::byte> constants = test::bytes_of(std::uint32_t(7), std::uint32_t(0), std::uint32_t(0), std::uint32_t(0));
  run(device, test::make_launch(kernel, 4, {x, y, constants}, test::bytes_of(std::uint32_t(200), std::uint32_t(3))));
  std::vector<std::uint32_t> expected(200);
  for (std::uint32_t i = 0; i < 200; ++i) expected[i] = i * 3 + 7;
  CHECK(test::download_u32(device, y) == expected);
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("a kernel sees its buffer's exact element count, also for an empty buffer") {
  vk::Device& device = test::shared_device();
  auto kernel = test::make_kernel("array_length", {test::storage_param("data", 0, ir::Access::Read),
                                                   test::storage_param("lengths", 1, ir::Access::Write)});
  RawBuffer lengths = test::upload_u32(device, {99});
  for (std::size_t count : {10, 1, 0}) {
    RawBuffer data = device.backend().allocate(count * 4, ir::scalar_type(ir::ScalarKind::U32), MemoryKind::DeviceLocal);
    run(device, test::make_launch(kernel, 1, {data, lengths}));
    CHECK(test::download_u32(device, lengths) == std::vector<std::uint32_t>{std::uint32_t(count)});
  }
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("64-bit atomics run when the device offers them") {
  vk::Device& device = test::shared_device();
  if (!device.info().supported.int64_atomics) return;
  auto u64 = ir::scalar_type(ir::ScalarKind::U64);
  auto kernel = test::make_kernel("atomic_add64", {test::storage_param("values", 0, ir::Access::Read, u64),
                                                   test::storage_param("total", 1, ir::Access::ReadWrite, u64)},
                                  4);
  kernel->features.int64 = kernel->features.int64_atomics = true;
  std::vector<std::uint64_t> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = (std::uint64_t(1) << 33) + i;
  RawBuffer in = device.backend().allocate(values.size() * 8, u64, MemoryKind::DeviceLocal);
  device.backend().write(in, 0, std::as_bytes(std::span(values)));
  RawBuffer total = device.backend().allocate(8, u64, MemoryKind::DeviceLocal);
  device.backend().write(total, 0, test::bytes_of(std::uint64_t(0)));
  run(device, test::make_launch(kernel, 16, {in, total}, test::bytes_of(std::uint32_t(1000))));
  std::uint64_t sum = 0;
  device.backend().read(total, 0, std::as_writable_bytes(std::span(&sum, 1)));
  CHECK(sum == 1000 * (std::uint64_t(1) << 33) + 999 * 1000 / 2);
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("a required subgroup size the device supports is the one the kernel runs with") {
  vk::Device& device = test::shared_device();
  std::uint32_t size = device.info().min_subgroup_size;
  RawBuffer sizes = test::upload_u32(device, {0, 0});
  run(device, test::make_launch(subgroup_size_kernel(size), 2, {sizes}));
  CHECK(test::download_u32(device, sizes) == std::vector<std::uint32_t>{size, size});
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("a required subgroup size the device lacks is an error naming the kernel and its line") {
  vk::Device& device = test::shared_device();
  std::uint32_t too_big = device.info().max_subgroup_size * 2;
  RawBuffer sizes = test::upload_u32(device, {0});
  auto kernel = subgroup_size_kernel(too_big);
  std::string line = std::to_string(__LINE__ - 1);
  auto sequence = device.backend().sequence();
  CHECK_THROWS_WITH(sequence->launch(test::make_launch(kernel, 1, {sizes})),
                    Catch::Contains("requires subgroup size " + std::to_string(too_big)) &&
                        Catch::Contains("kernel '" + kernel->name + "'") &&
                        Catch::Contains("test_vk_launch.cpp:" + line));
}

TEST_CASE("a missing device feature is an error naming the capability, the kernel and its line") {
  DeviceInfo device;
  device.name = "Test GPU";
  device.supported.int64 = false;
  auto kernel = test::make_kernel("uses_int64", {});
  std::string line = std::to_string(__LINE__ - 1);
  kernel->features.int64 = true;
  kernel->features.subgroup_ballot = true;
  CHECK_THROWS_WITH(vk::check_kernel_supported(*kernel, device),
                    Catch::Contains("kernel 'uses_int64'") && Catch::Contains("test_vk_launch.cpp:" + line) &&
                        Catch::Contains("cannot run on Test GPU") && Catch::Contains("shaderInt64") &&
                        Catch::Contains("subgroup ballot"));
  kernel->features = {};
  kernel->workgroup_size = {2048, 1, 1};
  CHECK_THROWS_WITH(vk::check_kernel_supported(*kernel, device), Catch::Contains("2048 invocations per workgroup"));
}

TEST_CASE("a launch with the wrong number of bindings names the kernel and the launching line") {
  vk::Device& device = test::shared_device();
  RawBuffer src = test::upload_u32(device, {1, 2, 3});
  auto kernel = test::add_one_kernel();
  auto sequence = device.backend().sequence();
  Launch launch = test::make_launch(kernel, 1, {src}, test::bytes_of(std::uint32_t(3)));
  std::string line = std::to_string(__LINE__ - 1);
  CHECK_THROWS_WITH(sequence->launch(launch), Catch::Contains("kernel 'add_one'") &&
                                                  Catch::Contains("expects 2 binding(s)") &&
                                                  Catch::Contains("passes 1") &&
                                                  Catch::Contains("launched at") &&
                                                  Catch::Contains("test_vk_launch.cpp:" + line));
}

TEST_CASE("a launch argument of the wrong kind, type or size names the parameter") {
  vk::Device& device = test::shared_device();
  RawBuffer u32s = test::upload_u32(device, {1, 2, 3, 4});
  RawBuffer floats = device.backend().allocate(16, ir::scalar_type(ir::ScalarKind::F32), MemoryKind::DeviceLocal);
  auto kernel = test::add_one_kernel();
  auto sequence = device.backend().sequence();
  auto n = test::bytes_of(std::uint32_t(4));
  CHECK_THROWS_WITH(sequence->launch(test::make_launch(kernel, 1, {u32s, std::vector<std::byte>(16)}, n)),
                    Catch::Contains("parameter 'dst' (binding 1) is a storage buffer, but the launch passes uniform bytes"));
  CHECK_THROWS_WITH(sequence->launch(test::make_launch(kernel, 1, {u32s, floats}, n)),
                    Catch::Contains("parameter 'dst' (binding 1) has elements of type uint,") &&
                        Catch::Contains("float"));
  CHECK_THROWS_WITH(sequence->launch(test::make_launch(kernel, 1, {u32s, RawBuffer()}, n)),
                    Catch::Contains("parameter 'dst' (binding 1): the buffer is empty"));
  CHECK_THROWS_WITH(sequence->launch(test::make_launch(kernel, 1, {u32s, u32s}, {})),
                    Catch::Contains("expects 4 bytes of scalar parameters, but the launch passes 0"));
  Launch too_many = test::make_launch(kernel, 1, {u32s, u32s}, n);
  too_many.workgroups[0] = device.info().max_workgroup_count[0] + 1;
  CHECK_THROWS_WITH(sequence->launch(too_many), Catch::Contains("more than the device's"));
}

TEST_CASE("pipeline build times are recorded per kernel") {
  vk::Device device = vk::Device::best(test::test_options());
  RawBuffer a = test::upload_u32(device, {1});
  RawBuffer b = test::upload_u32(device, {0});
  auto kernel = test::add_one_kernel("add_one#timed");
  run(device, test::add_one_launch(kernel, a, b, 1));
  run(device, test::add_one_launch(kernel, b, a, 1));  // cached: no second build
  REQUIRE(device.kernel_times().size() == 1);
  std::optional<vk::KernelTimes> times = device.kernel_times("add_one#timed");
  REQUIRE(times);
  CHECK(times->hash == kernel->hash);
  CHECK(times->emit_ms >= 0);
  CHECK(times->pipeline_ms > 0);
  CHECK(device.kernel_times(kernel->hash));
  CHECK_FALSE(device.kernel_times("never_built"));
}
