// Buffers on a Vulkan device: host round trips through staging or mapping, and the
// sub-allocator's blocks, reuse and dedicated allocations.
#include <catch2/catch.hpp>

#include <numeric>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

namespace {

constexpr std::size_t kBlock = std::size_t(1) << 20;  // small blocks and staging keep tests quick
constexpr std::size_t kStaging = std::size_t(64) << 10;

// A fresh device with 1 MiB blocks and a 64 KiB staging buffer, so memory statistics start
// from zero and large-transfer paths are cheap to reach.
vk::Device small_memory_device() {
  vk::Options options = test::test_options();
  options.block_bytes = kBlock;
  options.staging_bytes = kStaging;
  return vk::Device::best(options);
}

std::vector<std::byte> pattern(std::size_t n, unsigned seed = 1) {
  std::vector<std::byte> bytes(n);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = std::byte((i * 131 + seed * 7) & 0xff);
  return bytes;
}

std::vector<std::byte> round_trip(vk::Device& device, const std::vector<std::byte>& data, MemoryKind memory) {
  RawBuffer buffer = device.backend().allocate(data.size(), nullptr, memory);
  device.backend().write(buffer, 0, data);
  std::vector<std::byte> back(data.size());
  device.backend().read(buffer, 0, back);
  return back;
}

}  // namespace

TEST_CASE("small buffers round-trip through the staging buffer") {
  vk::Device& device = test::shared_device();
  std::vector<std::uint32_t> values = test::iota_u32(16, 100);
  RawBuffer buffer = test::upload_u32(device, values);
  CHECK(test::download_u32(device, buffer) == values);
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("odd-sized buffers round-trip byte for byte") {
  vk::Device& device = test::shared_device();
  for (std::size_t size : {1, 3, 5, 17, 4097}) {
    INFO("size " << size);
    CHECK(round_trip(device, pattern(size), MemoryKind::DeviceLocal) == pattern(size));
    CHECK(round_trip(device, pattern(size), MemoryKind::HostVisible) == pattern(size));
  }
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("transfers larger than the staging buffer go in chunks") {
  vk::Device device = small_memory_device();
  std::size_t size = 5 * kStaging + 3;  // ten half-staging chunks and an odd tail
  CHECK(round_trip(device, pattern(size), MemoryKind::DeviceLocal) == pattern(size));
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("writes and reads at an offset touch only their range") {
  vk::Device& device = test::shared_device();
  for (MemoryKind memory : {MemoryKind::DeviceLocal, MemoryKind::HostVisible}) {
    RawBuffer buffer = device.backend().allocate(64, nullptr, memory);
    device.backend().write(buffer, 0, std::vector<std::byte>(64, std::byte{0xAA}));
    device.backend().write(buffer, 13, std::vector<std::byte>(7, std::byte{0x11}));
    std::vector<std::byte> all(64);
    device.backend().read(buffer, 0, all);
    for (std::size_t i = 0; i < 64; ++i) {
      INFO("byte " << i);
      CHECK(all[i] == std::byte(i >= 13 && i < 20 ? 0x11 : 0xAA));
    }
    std::vector<std::byte> part(5);
    device.backend().read(buffer, 18, part);
    CHECK(part == std::vector<std::byte>{std::byte{0x11}, std::byte{0x11}, std::byte{0xAA}, std::byte{0xAA}, std::byte{0xAA}});
  }
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("transfers outside a buffer are errors") {
  vk::Device& device = test::shared_device();
  RawBuffer buffer = device.backend().allocate(16, nullptr, MemoryKind::DeviceLocal);
  std::vector<std::byte> bytes(8);
  CHECK_THROWS_AS(device.backend().write(buffer, 9, bytes), DeviceError);
  CHECK_THROWS_WITH(device.backend().read(buffer, 12, bytes), Catch::Contains("do not fit in a buffer of 16 bytes"));
  CHECK_THROWS_WITH(device.backend().read(RawBuffer(), 0, bytes), Catch::Contains("the buffer is empty"));
}

TEST_CASE("small buffers share one memory block") {
  vk::Device device = small_memory_device();
  std::vector<RawBuffer> buffers;
  for (int i = 0; i < 100; ++i) buffers.push_back(device.backend().allocate(1000, nullptr, MemoryKind::DeviceLocal));
  vk::MemoryStats stats = device.memory_stats();
  CHECK(stats.blocks == 1);
  CHECK(stats.allocations == 100);
  CHECK(stats.reserved_bytes == kBlock);
  CHECK(stats.used_bytes >= 100 * 1000);
  CHECK(stats.used_bytes <= 100 * 1024);  // rounded to the alignment only
}

TEST_CASE("freed ranges coalesce and are reused") {
  vk::Device device = small_memory_device();
  std::size_t third = kBlock / 3 / 256 * 256;
  {
    RawBuffer a = device.backend().allocate(third, nullptr, MemoryKind::DeviceLocal);
    RawBuffer b = device.backend().allocate(third, nullptr, MemoryKind::DeviceLocal);
    RawBuffer c = device.backend().allocate(third, nullptr, MemoryKind::DeviceLocal);
    CHECK(device.memory_stats().blocks == 1);
    b = RawBuffer();  // a hole in the middle, then its neighbours
  }
  vk::MemoryStats empty = device.memory_stats();
  CHECK(empty.used_bytes == 0);
  CHECK(empty.allocations == 0);
  CHECK(empty.blocks == 1);  // one empty block is kept for reuse
  // Only possible if the three ranges merged back into one.
  RawBuffer whole = device.backend().allocate(kBlock, nullptr, MemoryKind::DeviceLocal);
  CHECK(device.memory_stats().blocks == 1);
  CHECK(device.memory_stats().dedicated_blocks == 0);
}

TEST_CASE("empty blocks are kept for later buffers up to the retained bytes, a dedicated one for a buffer of about its size") {
  vk::Device device = small_memory_device();
  {
    RawBuffer big = device.backend().allocate(kBlock + 1, nullptr, MemoryKind::DeviceLocal);
    RawBuffer alias = big;  // memory lives as long as any RawBuffer refers to it
    big = RawBuffer();
    vk::MemoryStats stats = device.memory_stats();
    CHECK(stats.dedicated_blocks == 1);
    CHECK(stats.reserved_bytes >= kBlock + 1);
    CHECK(stats.allocations == 1);
  }
  // Kept empty, then taken by a buffer of about its size, not by a much smaller one.
  CHECK(device.memory_stats().dedicated_blocks == 1);
  CHECK(device.memory_stats().allocations == 0);
  {
    RawBuffer again = device.backend().allocate(kBlock + 1, nullptr, MemoryKind::DeviceLocal);
    CHECK(device.memory_stats().dedicated_blocks == 1);
    std::vector<std::byte> bytes = pattern(kBlock + 1);
    device.backend().write(again, 0, bytes);
    std::vector<std::byte> back(kBlock + 1);
    device.backend().read(again, 0, back);
    CHECK(back == bytes);
    RawBuffer larger = device.backend().allocate(2 * kBlock, nullptr, MemoryKind::DeviceLocal);
    CHECK(device.memory_stats().dedicated_blocks == 2);
  }
  vk::Options options = test::test_options();
  options.block_bytes = kBlock;
  options.retained_bytes = 0;
  vk::Device strict = vk::Device::best(options);
  { RawBuffer big = strict.backend().allocate(kBlock + 1, nullptr, MemoryKind::DeviceLocal); }
  CHECK(strict.memory_stats().blocks == 0);
  // Shared blocks too: one empty block per type stays, the rest only while retained.
  {
    RawBuffer x = strict.backend().allocate(kBlock, nullptr, MemoryKind::DeviceLocal);
    RawBuffer y = strict.backend().allocate(kBlock, nullptr, MemoryKind::DeviceLocal);
  }
  CHECK(strict.memory_stats().blocks == 1);
  std::size_t before = device.memory_stats().blocks;
  {
    RawBuffer x = device.backend().allocate(kBlock, nullptr, MemoryKind::DeviceLocal);
    RawBuffer y = device.backend().allocate(kBlock, nullptr, MemoryKind::DeviceLocal);
  }
  CHECK(device.memory_stats().blocks == before + 2);
}

TEST_CASE("host-visible buffers can be used by kernels") {
  vk::Device& device = test::shared_device();
  std::vector<std::uint32_t> values = test::iota_u32(100);
  RawBuffer src = test::upload_u32(device, values, MemoryKind::HostVisible);
  RawBuffer dst = device.backend().allocate(400, ir::scalar_type(ir::ScalarKind::U32), MemoryKind::HostVisible);
  auto sequence = device.backend().sequence();
  sequence->launch(test::add_one_launch(test::add_one_kernel(), src, dst, 100));
  sequence->submit();
  sequence->wait();
  CHECK(test::download_u32(device, dst) == test::iota_u32(100, 1));
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("a buffer of another device is rejected") {
  vk::Device other = vk::Device::best(test::test_options());
  RawBuffer foreign = other.backend().allocate(16, nullptr, MemoryKind::DeviceLocal);
  std::vector<std::byte> bytes(16);
  CHECK_THROWS_WITH(test::shared_device().backend().write(foreign, 0, bytes),
                    Catch::Contains("belongs to another Vulkan device"));
}
