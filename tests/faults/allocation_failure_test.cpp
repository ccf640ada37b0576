// Every allocation site fails cleanly: the error names the size, nothing crashes, and once
// the fault is gone the same device works and its memory is where it was.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/sprig.hpp"
#include "sprig/runtime/out_of_memory.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

constexpr std::uint64_t kEveryCall = 1'000'000;  // a fault that lasts until clear()

auto add_one() {
  return kernel("add_one_to_each", [](Buffer<std::uint32_t> d) {
    UInt i = global_id().x();
    if_(i < d.size(), [&] { d[i] = d[i] + 1u; });
  }, workgroup(64));
}

// A device whose buffers above 64 KiB each get their own memory block, so that every such
// allocation reaches vkAllocateMemory.
struct InjectedDevice {
  std::shared_ptr<vk::FaultInjector> faults = std::make_shared<vk::FaultInjector>();
  vk::Device device = vk::Device::best(options());

  vk::Options options() const {
    vk::Options o;
    o.faults = faults;
    o.block_bytes = 64 << 10;
    o.retained_bytes = 0;
    return o;
  }
};

std::string error_of(const std::function<void()>& operation) {
  try {
    operation();
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "no error";
}

// Upload, run, download: the device works.
bool works(vk::Device& device, std::size_t words = 1 << 16) {
  auto data = device.upload(std::vector<std::uint32_t>(words, 1));
  device.run(add_one(), grid(words), data);
  return device.download(data) == std::vector<std::uint32_t>(words, 2);
}

}  // namespace

TEST_CASE("a failed vkAllocateMemory is an error naming the size, after which the device works", "[vulkan]") {
  InjectedDevice injected;
  REQUIRE(works(injected.device));
  const vk::MemoryStats before = injected.device.memory_stats();
  injected.faults->fail(vk::FaultSite::MemoryAllocation, vk::Fault::OutOfDeviceMemory, 1, kEveryCall);
  std::string message = error_of([&] { (void)injected.device.alloc<std::uint32_t>(1 << 20); });
  CHECK_THAT(message, Contains("out of memory allocating 4194304 bytes") && Contains("VK_ERROR_OUT_OF_DEVICE_MEMORY"));
  CHECK(injected.faults->injected(vk::FaultSite::MemoryAllocation) > 0);
  // Its own type, so that a caller that can do with less memory tells it from other errors.
  CHECK_THROWS_AS((void)injected.device.alloc<std::uint32_t>(1 << 20), OutOfDeviceMemory);
  injected.faults->clear();
  CHECK(injected.device.memory_stats().allocations == before.allocations);
  CHECK(works(injected.device));
}

TEST_CASE("a failed vkCreateBuffer is an error naming the size, after which the device works", "[vulkan]") {
  InjectedDevice injected;
  injected.faults->fail(vk::FaultSite::BufferCreation, vk::Fault::OutOfHostMemory, 1, kEveryCall);
  std::string message = error_of([&] { (void)injected.device.alloc<std::uint32_t>(1 << 20); });
  CHECK_THAT(message, Contains("4194304 bytes") && Contains("VK_ERROR_OUT_OF_HOST_MEMORY"));
  injected.faults->clear();
  CHECK(works(injected.device));
}

TEST_CASE("a failed vkMapMemory is an error naming the size, after which the device works", "[vulkan]") {
  InjectedDevice injected;
  injected.faults->fail(vk::FaultSite::MemoryMapping, vk::Fault::OutOfHostMemory, 1, kEveryCall);
  std::string message =
      error_of([&] { (void)injected.device.alloc<std::uint32_t>(1 << 20, MemoryKind::HostVisible); });
  CHECK_THAT(message, Contains("4194304 bytes") && Contains("host-visible"));
  injected.faults->clear();
  CHECK(injected.device.memory_stats().allocations == 0);
  CHECK(works(injected.device));
}

TEST_CASE("a staging buffer that cannot be allocated fails the transfer with its size, and a later one works",
          "[vulkan]") {
  InjectedDevice injected;
  auto data = injected.device.alloc<std::uint32_t>(16);
  const std::vector<std::uint32_t> fives(16, 5);
  injected.faults->fail(vk::FaultSite::MemoryAllocation, vk::Fault::OutOfDeviceMemory, 1, kEveryCall);
  std::string message = error_of([&] { injected.device.write(data, std::span(fives)); });
  CHECK_THAT(message, Contains("16777216 bytes of staging memory"));
  injected.faults->clear();
  injected.device.write(data, std::span(fives));
  CHECK(injected.device.download(data) == fives);
}

TEST_CASE("a sequence whose command pool cannot be created fails with a clear error, and a later one works",
          "[vulkan]") {
  InjectedDevice injected;
  injected.faults->fail(vk::FaultSite::CommandPoolCreation, vk::Fault::OutOfHostMemory);
  std::string message = error_of([&] { (void)injected.device.sequence(); });
  CHECK_THAT(message, Contains("vkCreateCommandPool (sequence)") && Contains("VK_ERROR_OUT_OF_HOST_MEMORY"));
  CHECK(works(injected.device));
}

TEST_CASE("failing the Nth memory allocation of a workload, for every N, is an error and leaves the device working",
          "[vulkan]") {
  // The workload allocates a few blocks: its buffer, the staging buffer, the uniform-free
  // launch; each N fails a different one of them (and N past the last fails nothing).
  for (std::uint64_t n = 1; n <= 6; ++n) {
    INFO("allocation " << n << " fails");
    InjectedDevice injected;
    injected.faults->fail(vk::FaultSite::MemoryAllocation, vk::Fault::OutOfDeviceMemory, n, kEveryCall);
    bool failed = false;
    try {
      (void)works(injected.device);
    } catch (const DeviceError& e) {
      failed = true;
      CHECK_THAT(std::string(e.what()), Contains("out of memory allocating") && Contains(" bytes"));
    }
    CHECK(failed == (injected.faults->injected(vk::FaultSite::MemoryAllocation) > 0));
    injected.faults->clear();
    CHECK(works(injected.device));
    CHECK(injected.device.memory_stats().allocations == 1);  // the staging buffer, kept for later transfers
  }
}

TEST_CASE("a buffer larger than the device allows is an error naming both sizes", "[vulkan]") {
  vk::Device device = vk::Device::best();
  std::string message = error_of([&] { (void)device.alloc<std::uint32_t>(std::size_t(1) << 50); });
  CHECK_THAT(message, Contains(std::to_string(std::size_t(4) << 50)) && Contains("maxMemoryAllocationSize"));
  CHECK(works(device));
}

TEST_CASE("a simulator buffer larger than host memory is an error naming its size") {
  sim::Options options;
  options.max_buffer_bytes = std::uint64_t(1) << 62;
  sim::Device device(options);
  std::string message = error_of([&] { (void)device.alloc<std::uint32_t>(std::size_t(1) << 58); });
  CHECK_THAT(message, Contains(std::to_string(std::size_t(1) << 60) + " bytes"));
  auto data = device.upload(std::vector<std::uint32_t>(64, 1));
  device.run(add_one(), grid(64), data);
  CHECK(device.download(data) == std::vector<std::uint32_t>(64, 2));
}

TEST_CASE("a device-local buffer that device memory refuses goes to the next memory type, counted as spilled there",
          "[vulkan]") {
  // Failing the first N block allocations walks the buffer down the memory types: on a
  // discrete GPU it lands in host memory and counts as spilled; lavapipe's one type is
  // device memory, so its buffer never spills (or, refused on every try, is an error).
  for (std::uint64_t n = 1; n <= 4; ++n) {
    INFO(n << " block allocations fail");
    InjectedDevice injected;
    REQUIRE(injected.device.memory_usage().spilled_bytes == 0);
    injected.faults->fail(vk::FaultSite::MemoryAllocation, vk::Fault::OutOfDeviceMemory, 1, n);
    try {
      auto data = injected.device.upload(std::vector<std::uint32_t>(1 << 18, 1));
      const std::uint64_t spilled = injected.device.memory_usage().spilled_bytes;
      CHECK((spilled == 0 || spilled == data.bytes()));
      CHECK(spilled <= injected.device.memory_usage().in_use_bytes);
      injected.device.run(add_one(), grid(data.size()), data);  // a spilled buffer works, slowly
      CHECK(injected.device.download(data) == std::vector<std::uint32_t>(1 << 18, 2));
    } catch (const OutOfDeviceMemory&) {
      // every memory type refused it
    }
    CHECK(injected.device.memory_usage().spilled_bytes == 0);  // released with its buffer
  }
}

TEST_CASE("a refused device block frees the cached empty blocks and tries the best memory type again", "[vulkan]") {
  auto faults = std::make_shared<vk::FaultInjector>();
  vk::Options options;
  options.faults = faults;
  options.block_bytes = 64 << 10;
  options.retained_bytes = 64 << 20;  // empty blocks are kept for later buffers
  vk::Device device = vk::Device::best(options);
  { auto kept = device.alloc<std::uint32_t>(1 << 20); }  // leaves an empty 4 MiB block behind
  REQUIRE(device.memory_stats().blocks == 1);
  faults->fail(vk::FaultSite::MemoryAllocation, vk::Fault::OutOfDeviceMemory, 1, 1);
  auto data = device.alloc<std::uint32_t>(3 << 19);  // 6 MiB: too large for the kept block
  // The refusal freed the kept block, and the retry opened a block of the best type; a
  // worse type (host memory, or on a discrete GPU the small BAR window) was not tried first.
  CHECK(faults->injected(vk::FaultSite::MemoryAllocation) == 1);
  CHECK(device.memory_usage().spilled_bytes == 0);
  CHECK(device.memory_stats().dedicated_blocks == 1);
  device.write(data, std::span<const std::uint32_t>(std::vector<std::uint32_t>(3 << 19, 1)));
  device.run(add_one(), grid(data.size()), data);
  CHECK(device.download(data) == std::vector<std::uint32_t>(3 << 19, 2));
}
