// The typed front end (sprig::Device, sprig::Sequence) over the Vulkan backend, with a
// DSL-traced kernel whose SPIR-V comes from the equivalent GLSL test shader.
#include <catch2/catch.hpp>

#include "sprig/dsl.hpp"
#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

namespace {

// Same interface as shaders/add_one.comp: src at binding 0, dst at 1, n pushed at offset 0.
auto traced_add_one() {
  return kernel("add_one", [](ReadBuffer<std::uint32_t> src, WriteBuffer<std::uint32_t> dst, UInt n) {
    UInt i = global_id().x();
    if_(i < n, [&] { dst[i] = src[i] + 1u; });
  });
}

}  // namespace

TEST_CASE("upload, run and download through the typed device API") {
  vk::Device& device = test::shared_device();
  auto add_one = traced_add_one();
  REQUIRE(add_one.ir()->params.size() == 3);
  CHECK(add_one.ir()->params[0].used == std::uint8_t(ir::Access::Read));
  CHECK(add_one.ir()->params[1].used == std::uint8_t(ir::Access::Write));

  DeviceBuffer<std::uint32_t> src = device.upload(test::iota_u32(300));
  DeviceBuffer<std::uint32_t> dst = device.alloc<std::uint32_t>(300);
  device.run(add_one, grid(300), src, dst, std::uint32_t(300));
  CHECK(device.download(dst) == test::iota_u32(300, 1));
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("a typed sequence chains launches and copies with the barriers they need") {
  vk::Device& device = test::shared_device();
  auto add_one = traced_add_one();
  DeviceBuffer<std::uint32_t> a = device.upload(test::iota_u32(64));
  DeviceBuffer<std::uint32_t> b = device.alloc<std::uint32_t>(64);
  DeviceBuffer<std::uint32_t> c = device.alloc<std::uint32_t>(64);
  Sequence sequence = device.sequence();
  sequence.run(add_one, grid(64), a, b, std::uint32_t(64)).run(add_one, grid(64), b, a, std::uint32_t(64)).copy(a, c);
  sequence.run_and_wait();
  CHECK(device.download(c) == test::iota_u32(64, 2));
  REQUIRE(sequence.timings().size() == 2);
  CHECK(sequence.timings()[1].kernel == "add_one");
  CHECK_THROWS_WITH(sequence.copy(a, device.alloc<std::uint32_t>(3)), Catch::Contains("source has 256 bytes"));
  std::vector<std::uint32_t> too_many(65);
  CHECK_THROWS_AS(device.read(a, std::span(too_many)), DeviceError);
}
