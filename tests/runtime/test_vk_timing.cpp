// GPU times of launches, from timestamp queries.
#include <catch2/catch.hpp>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

namespace {

std::shared_ptr<ir::Kernel> busy_kernel() {
  return test::make_kernel("busy_loop", {test::storage_param("data", 0, ir::Access::ReadWrite)}, 8);
}

Launch busy_launch(const RawBuffer& data, std::uint32_t n, std::uint32_t rounds) {
  return test::make_launch(busy_kernel(), (n + 63) / 64, {data}, test::bytes_of(n, rounds));
}

}  // namespace

TEST_CASE("each launch gets a positive GPU time under its kernel's name") {
  vk::Device& device = test::shared_device();
  constexpr std::uint32_t n = 4096;
  RawBuffer data = test::upload_u32(device, test::iota_u32(n));
  RawBuffer other = device.backend().allocate(n * 4, ir::scalar_type(ir::ScalarKind::U32), MemoryKind::DeviceLocal);
  auto sequence = device.backend().sequence();
  sequence->launch(busy_launch(data, n, 200));
  sequence->launch(test::add_one_launch(test::add_one_kernel(), data, other, n));
  CHECK_THROWS_WITH(sequence->timings(), Catch::Contains("after wait()"));
  sequence->submit();
  sequence->wait();
  std::vector<LaunchTiming> timings = sequence->timings();
  REQUIRE(timings.size() == 2);
  CHECK(timings[0].kernel == "busy_loop");
  CHECK(timings[1].kernel == "add_one");
  CHECK(timings[0].gpu_ms > 0);
  CHECK(timings[1].gpu_ms > 0);
  CHECK(timings[0].gpu_ms < 10000);
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("with timestamps turned off launches report 0 ms") {
  vk::Options options = test::test_options();
  options.timestamps = false;
  vk::Device device = vk::Device::best(options);
  RawBuffer data = test::upload_u32(device, test::iota_u32(64));
  auto sequence = device.backend().sequence();
  sequence->launch(busy_launch(data, 64, 10));
  sequence->submit();
  sequence->wait();
  REQUIRE(sequence->timings().size() == 1);
  CHECK(sequence->timings()[0].kernel == "busy_loop");
  CHECK(sequence->timings()[0].gpu_ms == 0);
}
