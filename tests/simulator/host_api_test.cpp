// The host API on the simulator, as on Vulkan: buffers, transfers, sequences, timings,
// launch checks, and several host threads sharing one device.
#include <thread>

#include "sim_test_support.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

auto add_one() {
  return kernel("add_one", [](Buffer<std::uint32_t> data) {
    UInt i = global_id().x();
    if_(i < data.size(), [&] { data[i] = data[i] + 1u; });
  }, workgroup(64));
}

}  // namespace

TEST_CASE("the simulator describes itself as a device") {
  sim::Options options;
  options.subgroup_size = 16;
  options.max_shared_memory = 32768;
  sim::Device dev(options);
  CHECK(dev.info().backend == "simulator");
  CHECK(dev.info().subgroup_size == 16);
  CHECK(dev.info().max_shared_memory == 32768);
  CHECK(dev.info().supported.subgroup_arithmetic);
  CHECK_THROWS_AS([] {
    sim::Options bad;
    bad.subgroup_size = 12;
    sim::Device d(bad);
  }(), DeviceError);
}

TEST_CASE("upload, read, write at an offset, download") {
  sim::Device dev;
  auto b = dev.upload(std::vector<std::uint32_t>{1, 2, 3, 4});
  std::vector<std::uint32_t> part{9, 8};
  dev.write(b, std::span<const std::uint32_t>(part), 1);
  CHECK(dev.download(b) == std::vector<std::uint32_t>{1, 9, 8, 4});
  std::vector<std::uint32_t> two(2);
  dev.read(b, std::span<std::uint32_t>(two), 2);
  CHECK(two == std::vector<std::uint32_t>{8, 4});
  CHECK_THROWS_AS(dev.read(b, std::span<std::uint32_t>(two), 3), DeviceError);
}

TEST_CASE("a sequence runs launches, copies and fills in order and times each launch") {
  sim::Device dev;
  auto k = add_one();
  auto a = dev.upload(std::vector<std::uint32_t>(100, 5));
  auto b = dev.alloc<std::uint32_t>(100);
  auto s = dev.sequence();
  s.run(k, grid(100), a).run(k, grid(100), a).copy(a, b).fill(a, 7).run(k, grid(100), b);
  s.run_and_wait();
  CHECK(s.poll());
  CHECK(dev.download(a) == std::vector<std::uint32_t>(100, 7));
  CHECK(dev.download(b) == std::vector<std::uint32_t>(100, 8));
  std::vector<LaunchTiming> t = s.timings();
  REQUIRE(t.size() == 3);
  CHECK(t[0].kernel == "add_one");
  CHECK(t[0].gpu_ms >= 0.0);
  CHECK_THROWS_WITH(s.run(k, grid(100), a), Contains("already submitted"));
}

TEST_CASE("buffers of another device are refused at launch") {
  sim::Device one, two;
  auto k = add_one();
  auto b = two.upload(std::vector<std::uint32_t>(4));
  CHECK_THROWS_WITH(one.run(k, grid(4), b), Contains("another device") && Contains("add_one"));
}

TEST_CASE("too much shared memory is refused like on a GPU") {
  sim::Options options;
  options.max_shared_memory = 1024;
  sim::Device dev(options);
  auto k = kernel("big_shared", [](WriteBuffer<std::uint32_t> out) {
    auto big = shared_array<std::uint32_t>(512, "big");
    big[local_index()] = 1u;
    out[0] = big[0];
  }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(1);
  CHECK_THROWS_WITH(dev.run(k, grid(64), out), Contains("2048 bytes of shared memory"));
}

TEST_CASE("workgroup limits are options, reported and enforced like on a small GPU") {
  sim::Options options;
  options.subgroup_size = 4;
  options.max_workgroup_invocations = 128;
  options.max_workgroup_size = {128, 128, 64};
  sim::Device dev(options);
  CHECK(dev.info().subgroup_size == 4);
  CHECK(dev.info().min_subgroup_size == 4);
  CHECK(dev.info().max_workgroup_invocations == 128);
  CHECK(dev.info().max_workgroup_size == std::array<std::uint32_t, 3>{128, 128, 64});
  auto out = dev.alloc<std::uint32_t>(256);
  auto wide = kernel("wide", [](WriteBuffer<std::uint32_t> o) { o[global_id().x()] = 1u; }, workgroup(256));
  CHECK_THROWS_WITH(dev.run(wide, grid(256), out), Contains("256 invocations per workgroup") && Contains("1..128"));
  auto tall = kernel("tall", [](WriteBuffer<std::uint32_t> o) { o[global_id().x()] = 1u; }, workgroup(1, 1, 65));
  CHECK_THROWS_WITH(dev.run(tall, grid(1, 1, 65), out), Contains("in dimension 2"));
  CHECK_THROWS_AS([] {
    sim::Options bad;
    bad.subgroup_size = 64;
    bad.max_workgroup_invocations = 32;
    sim::Device d(bad);
  }(), DeviceError);
}

TEST_CASE("a kernel that requires a subgroup size runs at that size") {
  sim::Device dev;  // 32 by default
  auto k = kernel("needs_8", [](WriteBuffer<std::uint32_t> out) { out[global_id().x()] = subgroup_size(); },
                  KernelOptions{{16, 1, 1}, 8});
  CHECK(simtest::outputs<std::uint32_t>(dev, k, 16, grid(16)) == std::vector<std::uint32_t>(16, 8));
}

TEST_CASE("several host threads can share one device") {
  sim::Device dev;
  auto k = add_one();
  std::vector<DeviceBuffer<std::uint32_t>> buffers;
  for (int t = 0; t < 4; ++t) buffers.push_back(dev.upload(std::vector<std::uint32_t>(1000, std::uint32_t(t))));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < 10; ++r) dev.run(k, grid(1000), buffers[std::size_t(t)]);
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t)
    CHECK(dev.download(buffers[std::size_t(t)]) == std::vector<std::uint32_t>(1000, std::uint32_t(t + 10)));
  CHECK(dev.report().launches == 40);
}
