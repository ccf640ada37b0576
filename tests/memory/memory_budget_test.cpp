// A device-wide memory budget, and the accounting of what sprig holds on a device.
#include "backends.hpp"

using namespace sprig;
using Catch::Contains;

namespace {

// Restores "no budget" on the shared test device however the test ends.
struct BudgetGuard {
  sprig::Device& dev;
  ~BudgetGuard() { dev.set_memory_budget(0); }
};

}  // namespace

TEST_CASE("memory usage counts live buffers and keeps the high-water mark") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::uint64_t before = dev.memory_usage().in_use_bytes;
  dev.reset_peak_memory();
  {
    auto a = dev.alloc<std::uint32_t>(1000);
    CHECK(dev.memory_usage().in_use_bytes == before + 4000);
    auto b = dev.alloc<std::uint32_t>(500);
    CHECK(dev.memory_usage().in_use_bytes == before + 6000);
  }
  MemoryUsage after = dev.memory_usage();
  CHECK(after.in_use_bytes == before);
  CHECK(after.peak_bytes == before + 6000);
}

TEST_CASE("an allocation past the device's budget is refused before the driver is asked") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  BudgetGuard guard{dev};
  std::uint64_t held = dev.memory_usage().in_use_bytes;
  dev.set_memory_budget(held + 10000);
  auto fits = dev.alloc<std::uint32_t>(2000);
  try {
    (void)dev.alloc<std::uint32_t>(1000);
    FAIL("the allocation should have been refused");
  } catch (const MemoryBudgetExceeded& e) {
    CHECK(e.asked() == 4000);
    CHECK(e.allowed() == 2000);
    CHECK_THAT(std::string(e.what()),
               Contains("3.91 KiB (4000 bytes) asked for") && Contains("Device::set_memory_budget"));
  }
  CHECK(dev.memory_usage().in_use_bytes == held + 8000);  // the refusal took nothing
}

TEST_CASE("a sequence's scratch counts against the device's budget") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  BudgetGuard guard{dev};
  auto k = kernel("fill_index", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < out.size(), [&] { out[i] = i; });
  }, workgroup(64));
  dev.set_memory_budget(dev.memory_usage().in_use_bytes + 1024);
  Sequence s = dev.sequence();
  auto t = s.transient<std::uint32_t>(4096, "scratch");
  s.run(k, grid(4096), t);
  CHECK_THROWS_AS(s.submit(), MemoryBudgetExceeded);
}

TEST_CASE("the driver's budget for device memory is reported where the device has one") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  MemoryUsage usage = dev.memory_usage();
  if (dev.info().backend == "simulator") {
    CHECK_FALSE(usage.driver.has_value());
  } else if (usage.driver) {
    CHECK(usage.driver->heap_bytes > 0);
    CHECK(usage.driver->budget_bytes > 0);
  }
}

TEST_CASE("the room left in device memory takes the smaller of heap and budget, the larger of the two counts of use") {
  MemoryUsage usage;
  CHECK_FALSE(usage.device_local_room().has_value());  // no driver figures: unknown
  usage.driver = DriverMemoryBudget{/*heap*/ 80 << 20, /*budget*/ 70 << 20, /*usage*/ 10 << 20};
  CHECK(usage.device_local_room() == std::uint64_t(60) << 20);
  usage.in_use_bytes = 30 << 20;  // the driver's usage lags behind sprig's own count
  CHECK(usage.device_local_room() == std::uint64_t(40) << 20);
  usage.spilled_bytes = 25 << 20;  // spilled buffers are not in device memory
  CHECK(usage.device_local_room() == std::uint64_t(60) << 20);
  usage.driver->budget_bytes = 0;  // no budget reported: the heap is the limit
  CHECK(usage.device_local_room() == std::uint64_t(70) << 20);
  usage.driver->usage_bytes = 90 << 20;  // over the heap (the driver paging it out)
  CHECK(usage.device_local_room() == 0u);
}
