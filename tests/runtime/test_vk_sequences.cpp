// Sequences: many commands in one submission with derived barriers, their life cycle, and
// several host threads recording and submitting at once.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_test_support.hpp"

using namespace sprig;

namespace {

RawBuffer u32_buffer(vk::Device& device, std::size_t n) {
  return device.backend().allocate(n * 4, ir::scalar_type(ir::ScalarKind::U32), MemoryKind::DeviceLocal);
}

}  // namespace

TEST_CASE("11 launches alternating between two buffer pairs give the right results with 5 barriers") {
  vk::Device& device = test::shared_device();
  constexpr std::uint32_t n = 1000;
  RawBuffer a = test::upload_u32(device, test::iota_u32(n, 0));
  RawBuffer b = u32_buffer(device, n);
  RawBuffer c = test::upload_u32(device, test::iota_u32(n, 5000));
  RawBuffer d = u32_buffer(device, n);
  auto kernel = test::add_one_kernel();

  // Launch i works on pair i % 2, forwards (A->B, C->D) or backwards (B->A, D->C) every
  // other time: A->B, C->D, B->A, D->C, A->B, ... Each launch depends on the one two
  // before it; the barrier before launch i also covers launch i-1, so only launches
  // 2, 4, 6, 8 and 10 need one.
  auto sequence = device.backend().sequence();
  const RawBuffer* pairs[2][2] = {{&a, &b}, {&c, &d}};
  for (int i = 0; i < 11; ++i) {
    const RawBuffer* const* pair = pairs[i % 2];
    bool backwards = (i / 2) % 2 == 1;
    sequence->launch(test::add_one_launch(kernel, *pair[backwards ? 1 : 0], *pair[backwards ? 0 : 1], n));
  }
  CHECK(vk::barrier_count(*sequence) == 5);
  sequence->submit();
  sequence->wait();

  // Pair 1 saw launches 0, 2, 4, 6, 8, 10 (ending in A); pair 2 saw 1, 3, 5, 7, 9 (ending in D).
  CHECK(test::download_u32(device, a) == test::iota_u32(n, 6));
  CHECK(test::download_u32(device, b) == test::iota_u32(n, 5));
  CHECK(test::download_u32(device, c) == test::iota_u32(n, 5004));
  CHECK(test::download_u32(device, d) == test::iota_u32(n, 5005));
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("launches that share only read-only inputs get no barrier") {
  vk::Device& device = test::shared_device();
  RawBuffer in = test::upload_u32(device, {1, 2, 3});
  RawBuffer out1 = u32_buffer(device, 3), out2 = u32_buffer(device, 3);
  auto kernel = test::add_one_kernel();
  auto sequence = device.backend().sequence();
  sequence->launch(test::add_one_launch(kernel, in, out1, 3));
  sequence->launch(test::add_one_launch(kernel, in, out2, 3));
  CHECK(vk::barrier_count(*sequence) == 0);
  sequence->submit();
  sequence->wait();
  CHECK(test::download_u32(device, out1) == std::vector<std::uint32_t>{2, 3, 4});
  CHECK(test::download_u32(device, out2) == std::vector<std::uint32_t>{2, 3, 4});
}

TEST_CASE("writing a buffer that an earlier launch reads needs a barrier") {
  vk::Device& device = test::shared_device();
  RawBuffer a = test::upload_u32(device, {10, 20});
  RawBuffer b = u32_buffer(device, 2);
  RawBuffer c = test::upload_u32(device, {100, 200});
  auto kernel = test::add_one_kernel();
  auto sequence = device.backend().sequence();
  sequence->launch(test::add_one_launch(kernel, a, b, 2));  // reads a
  sequence->launch(test::add_one_launch(kernel, c, a, 2));  // then overwrites it
  CHECK(vk::barrier_count(*sequence) == 1);
  sequence->submit();
  sequence->wait();
  CHECK(test::download_u32(device, b) == std::vector<std::uint32_t>{11, 21});
  CHECK(test::download_u32(device, a) == std::vector<std::uint32_t>{101, 201});
}

TEST_CASE("fill, copy and launch in one sequence, with a barrier between dependent commands") {
  vk::Device& device = test::shared_device();
  RawBuffer a = u32_buffer(device, 8), b = u32_buffer(device, 8), c = u32_buffer(device, 8);
  auto sequence = device.backend().sequence();
  sequence->fill(a, 0, 32, 41);
  sequence->copy(a, 8, b, 0, 24);  // b[0..6) = 41
  sequence->fill(b, 24, 8, 7);     // b[6..8) = 7: b was written since the last barrier
  sequence->launch(test::add_one_launch(test::add_one_kernel(), b, c, 8));
  CHECK(vk::barrier_count(*sequence) == 3);
  sequence->submit();
  sequence->wait();
  CHECK(test::download_u32(device, c) == std::vector<std::uint32_t>{42, 42, 42, 42, 42, 42, 8, 8});
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("a fill reaches the end of an odd-sized buffer but elsewhere needs whole words") {
  vk::Device& device = test::shared_device();
  RawBuffer odd = device.backend().allocate(6, nullptr, MemoryKind::DeviceLocal);
  auto sequence = device.backend().sequence();
  sequence->fill(odd, 0, 6, 0x04030201);
  CHECK_THROWS_WITH(sequence->fill(odd, 0, 5, 0), Catch::Contains("not a multiple of 4"));
  CHECK_THROWS_WITH(sequence->fill(odd, 2, 4, 0), Catch::Contains("offset 2 is not a multiple of 4"));
  sequence->submit();
  sequence->wait();
  std::vector<std::byte> bytes(6);
  device.backend().read(odd, 0, bytes);
  CHECK(bytes == std::vector<std::byte>{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}, std::byte{1}, std::byte{2}});
}

TEST_CASE("copies check their ranges and refuse overlapping ones") {
  vk::Device& device = test::shared_device();
  RawBuffer a = u32_buffer(device, 4);
  auto sequence = device.backend().sequence();
  CHECK_THROWS_WITH(sequence->copy(a, 0, a, 4, 8), Catch::Contains("overlap"));
  CHECK_THROWS_WITH(sequence->copy(a, 12, a, 0, 8), Catch::Contains("outside the buffer of 16 bytes"));
  sequence->copy(a, 0, a, 8, 8);  // disjoint halves of one buffer are fine
}

TEST_CASE("a sequence's life cycle: record, submit, poll or wait, then read its timings") {
  vk::Device& device = test::shared_device();
  RawBuffer a = test::upload_u32(device, {1}), b = u32_buffer(device, 1);
  auto sequence = device.backend().sequence();
  CHECK_THROWS_WITH(sequence->wait(), Catch::Contains("wait() before submit()"));
  CHECK_THROWS_WITH(sequence->poll(), Catch::Contains("poll() before submit()"));
  sequence->launch(test::add_one_launch(test::add_one_kernel(), a, b, 1));
  sequence->submit();
  CHECK_THROWS_WITH(sequence->submit(), Catch::Contains("already submitted"));
  CHECK_THROWS_WITH(sequence->fill(a, 0, 4, 0), Catch::Contains("already submitted"));
  while (!sequence->poll()) std::this_thread::yield();
  CHECK(sequence->timings().size() == 1);
  sequence->wait();  // after poll() said done: returns at once
  CHECK(test::download_u32(device, b) == std::vector<std::uint32_t>{2});
}

TEST_CASE("an empty sequence can be submitted and waited for") {
  auto sequence = test::shared_device().backend().sequence();
  sequence->submit();
  sequence->wait();
  CHECK(sequence->timings().empty());
}

TEST_CASE("sequences may be destroyed unsubmitted or still running") {
  vk::Device& device = test::shared_device();
  RawBuffer a = test::upload_u32(device, test::iota_u32(4096)), b = u32_buffer(device, 4096);
  auto kernel = test::add_one_kernel();
  {
    auto unsubmitted = device.backend().sequence();
    unsubmitted->launch(test::add_one_launch(kernel, a, b, 4096));
  }
  {
    auto running = device.backend().sequence();
    for (int i = 0; i < 8; ++i) running->launch(test::add_one_launch(kernel, i % 2 ? b : a, i % 2 ? a : b, 4096));
    running->submit();
  }  // waits in the destructor
  CHECK(test::download_u32(device, a) == test::iota_u32(4096, 8));
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("buffers stay alive while a submitted sequence uses them") {
  vk::Device& device = test::shared_device();
  RawBuffer keep = u32_buffer(device, 256);
  auto sequence = device.backend().sequence();
  {
    RawBuffer temporary = test::upload_u32(device, test::iota_u32(256));
    sequence->launch(test::add_one_launch(test::add_one_kernel(), temporary, keep, 256));
  }  // the user's last reference is gone; the sequence still holds the memory
  sequence->submit();
  RawBuffer reuse = test::upload_u32(device, std::vector<std::uint32_t>(256, 0xdead));
  sequence->wait();
  CHECK(test::download_u32(device, keep) == test::iota_u32(256, 1));
}

TEST_CASE("sequences recorded and submitted from four host threads at once") {
  vk::Device& device = test::shared_device();
  // A fresh name: the threads race to build its pipeline, which must happen once.
  auto kernel = test::add_one_kernel("add_one#threads");
  constexpr std::uint32_t n = 512;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (std::uint32_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (std::uint32_t round = 0; round < 8; ++round) {
          std::uint32_t base = t * 100000 + round * 1000;
          RawBuffer x = test::upload_u32(device, test::iota_u32(n, base));
          RawBuffer y = u32_buffer(device, n), z = u32_buffer(device, n);
          auto sequence = device.backend().sequence();
          sequence->launch(test::add_one_launch(kernel, x, y, n));
          sequence->launch(test::add_one_launch(kernel, y, x, n));
          sequence->copy(x, 0, z, 0, n * 4);
          sequence->submit();
          sequence->wait();
          if (test::download_u32(device, z) != test::iota_u32(n, base + 2)) ++failures;
        }
      } catch (const std::exception& e) {
        UNSCOPED_INFO("thread " << t << ": " << e.what());
        ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == 0);
  std::size_t builds = 0;
  for (const vk::KernelTimes& times : device.kernel_times()) builds += times.kernel == "add_one#threads" ? 1 : 0;
  CHECK(builds == 1);
  CHECK(device.take_validation_messages().empty());
}

TEST_CASE("sequences reuse what earlier sequences recorded into, with many launches and after unsubmitted ones") {
  // Finished sequences hand their command, descriptor and query pools back to the device
  // (vk_recording_pool.hpp). 70 launches need three descriptor pools (32 sets each) and two
  // query pools (64 launches each); the sequences after them get those pools reset, and
  // must see neither stale descriptors nor stale timestamps.
  vk::Device& device = test::shared_device();
  constexpr std::uint32_t n = 512;
  auto kernel = test::add_one_kernel();
  RawBuffer a = test::upload_u32(device, test::iota_u32(n)), b = u32_buffer(device, n);
  std::uint32_t added = 0;
  for (int round = 0; round < 4; ++round) {
    {
      auto dropped = device.backend().sequence();  // never submitted: reset and reused as well
      dropped->launch(test::add_one_launch(kernel, a, b, n));
    }
    int launches = round % 2 == 0 ? 70 : 3;
    auto sequence = device.backend().sequence();
    for (int i = 0; i < launches; ++i) sequence->launch(test::add_one_launch(kernel, i % 2 ? b : a, i % 2 ? a : b, n));
    sequence->submit();
    sequence->wait();
    added += std::uint32_t(launches);
    std::vector<LaunchTiming> timings = sequence->timings();
    REQUIRE(timings.size() == std::size_t(launches));
    for (const LaunchTiming& t : timings) {
      CHECK(t.kernel == "add_one");
      CHECK(t.gpu_ms >= 0);
      CHECK(t.gpu_ms < 10000);
    }
    // An odd number of launches leaves the result in b; copy it back to a for the next round.
    if (launches % 2 == 1) {
      auto back = device.backend().sequence();
      back->copy(b, 0, a, 0, n * 4);
      back->submit();
      back->wait();
    }
    CHECK(test::download_u32(device, a) == test::iota_u32(n, added));
  }
  CHECK(device.take_validation_messages().empty());
}
