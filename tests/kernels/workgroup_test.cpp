// Workgroup-level programming on both backends: shared memory, barriers, atomics,
// device-scope message passing.
#include <numeric>
#include <random>

#include "backends.hpp"

using namespace sprig;
using test::outputs;

TEST_CASE("reverse an array inside each workgroup through shared memory") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("reverse", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    auto tile = shared_array<std::uint32_t>(64, "tile");
    UInt l = local_index();
    UInt base = workgroup_id().x() * 64u;
    tile[l] = in[base + l];
    barrier();
    out[base + l] = tile[63u - l];
  }, workgroup(64));
  std::vector<std::uint32_t> values(256);
  std::iota(values.begin(), values.end(), 0u);
  auto in = dev.upload(values);
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(dev, k, 256, grid(256), in);
  for (std::uint32_t i = 0; i < 256; ++i) REQUIRE(got[i] == (i / 64) * 64 + 63 - i % 64);
}

TEST_CASE("a workgroup tree reduction with barriers") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("tree_sum", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> sums) {
    auto partial = shared_array<std::uint32_t>(128, "partial");
    UInt l = local_index();
    UInt g = global_id().x();
    partial[l] = 0u;
    if_(g < in.size(), [&] { partial[l] = in[g]; });  // select() would read past the end
    barrier();
    for (std::uint32_t stride = 64; stride > 0; stride /= 2) {  // unrolled at trace time
      if_(l < stride, [&] { partial[l] += partial[l + stride]; });
      barrier();
    }
    if_(l == 0u, [&] { sums[workgroup_id().x()] = partial[0]; });
  }, workgroup(128));
  std::vector<std::uint32_t> values(1000);
  std::iota(values.begin(), values.end(), 1u);
  auto in = dev.upload(values);
  std::vector<std::uint32_t> got = outputs<std::uint32_t>(dev, k, 8, grid(1024), in);
  std::vector<std::uint32_t> expected(8, 0);
  for (std::uint32_t i = 0; i < 1000; ++i) expected[i / 128] += i + 1;
  CHECK(got == expected);
}

TEST_CASE("an atomic histogram of 256 bins over 2^20 values has exact counts") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("histogram", [](ReadBuffer<std::uint32_t> in, Buffer<std::uint32_t> bins) {
    auto local = shared_array<std::uint32_t>(256, "local_bins");
    UInt l = local_index();
    local[l] = 0u;
    barrier();
    UInt i = global_id().x();
    if_(i < in.size(), [&] { atomic_add(local[in[i] & 255u], 1u); });
    barrier();
    atomic_add(bins[l], local[l]);
  }, workgroup(256));
  const std::size_t n = std::size_t(1) << 20;
  std::vector<std::uint32_t> values(n);
  std::mt19937 rng(7);
  std::vector<std::uint32_t> expected(256, 0);
  for (auto& v : values) {
    v = rng();
    ++expected[v & 255];
  }
  auto in = dev.upload(values);
  CHECK(outputs<std::uint32_t>(dev, k, 256, grid(n), in) == expected);
}

TEST_CASE("compare-exchange builds a lock-free counter") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("cas_counter", [](Buffer<std::uint32_t> counter, WriteBuffer<std::uint32_t> tickets) {
    UInt i = global_id().x();
    Var<UInt> seen = atomic_load(counter[0]);
    Var<UInt> mine = 0u;
    loop_([&] {
      UInt before = atomic_compare_exchange(counter[0], seen, seen + 1u);
      if_(before == seen, [&] {
        mine = before;
        break_();
      });
      seen = before;
    });
    tickets[i] = mine;
  }, workgroup(64));
  auto counter = dev.upload(std::vector<std::uint32_t>{0});
  std::vector<std::uint32_t> tickets = outputs<std::uint32_t>(dev, k, 512, grid(512), counter);
  CHECK(dev.download(counter)[0] == 512u);
  std::sort(tickets.begin(), tickets.end());
  for (std::uint32_t i = 0; i < 512; ++i) REQUIRE(tickets[i] == i);  // every ticket once
}

TEST_CASE("64-bit atomics on buffers and shared memory") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("atomics64", [](Buffer<std::uint64_t> acc) {
    auto local = shared<std::uint64_t>("local_max");
    UInt l = local_index();
    if_(l == 0u, [&] { local = 0ull; });
    barrier();
    ULong v = cast<std::uint64_t>(global_id().x()) << 33ull;
    atomic_max(local, v);
    atomic_add(acc[0], v);
    atomic_or(acc[1], 1ull << cast<std::uint64_t>(l % 64u));
    barrier();
    if_(l == 0u, [&] { atomic_max(acc[2], local.load()); });
  }, workgroup(64));
  auto acc = dev.upload(std::vector<std::uint64_t>{0, 0, 0});
  dev.run(k, grid(256), acc);
  std::vector<std::uint64_t> got = dev.download(acc);
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < 256; ++i) sum += i << 33;
  CHECK(got[0] == sum);
  CHECK(got[1] == ~std::uint64_t(0));
  CHECK(got[2] == std::uint64_t(255) << 33);
}

TEST_CASE("device-scope release/acquire message passing between two workgroups") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  // Workgroup 0 publishes data and then a flag (release); every invocation of workgroup 1
  // waits for the flag itself (acquire) and must then see the data. (Each waits on its own:
  // lavapipe's workgroup barrier does not hold after a spin on another workgroup's memory.)
  // Vulkan does not promise that the two workgroups run together, so the wait is bounded
  // and each invocation also reports whether it saw the flag: the data must be there
  // wherever it did, and of several launches at least one must see it. (On a loaded 2-core
  // CI machine an invocation of workgroup 1 once read the data as 0, and the test did not
  // yet say whether it had seen the flag.)
  auto k = kernel("message", [](CoherentBuffer<std::uint32_t> data, CoherentBuffer<std::uint32_t> flag,
                                WriteBuffer<std::uint32_t> seen, WriteBuffer<std::uint32_t> flag_seen) {
    UInt l = local_index();
    if_(workgroup_id().x() == 0u, [&] {
      data[l] = l * 3u + 1u;
      barrier();
      if_(l == 0u, [&] { atomic_store(flag[0], 1u, MemoryOrder::Release); });
    }).else_([&] {
      Var<UInt> published = atomic_load(flag[0], MemoryOrder::Acquire);
      Var<UInt> spins = 0u;
      while_([&] { return published == 0u && spins < 100000000u; }, [&] {
        published = atomic_load(flag[0], MemoryOrder::Acquire);
        spins += 1u;
      });
      seen[l] = data[l];
      flag_seen[l] = published;
    });
  }, workgroup(32));
  std::uint32_t launches_that_saw_it = 0;
  for (int launch = 0; launch < 4; ++launch) {
    auto data = dev.upload(std::vector<std::uint32_t>(32, 0));
    auto flag = dev.upload(std::vector<std::uint32_t>{0});
    auto seen = dev.upload(std::vector<std::uint32_t>(32, 0));
    auto flag_seen = dev.upload(std::vector<std::uint32_t>(32, 0));
    dev.run(k, grid(64), data, flag, seen, flag_seen);
    std::vector<std::uint32_t> got = dev.download(seen), saw = dev.download(flag_seen);
    bool any = false;
    for (std::uint32_t l = 0; l < 32; ++l) {
      INFO("launch " << launch << ", invocation " << l);
      if (saw[l] == 1u) REQUIRE(got[l] == l * 3 + 1);
      any = any || saw[l] == 1u;
    }
    launches_that_saw_it += any;
  }
  CHECK(launches_that_saw_it > 0);
}

TEST_CASE("3D workgroups: local and global ids in every dimension") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("ids3d", [](WriteBuffer<std::uint32_t> out) {
    UVec3 g = global_id();
    UVec3 n = global_count();
    UInt flat = g.x() + n.x() * (g.y() + n.y() * g.z());
    UVec3 l = local_id();
    out[flat] = local_index() * 1000u + l.x() * 100u + l.y() * 10u + l.z();
  }, workgroup(4, 2, 2));
  std::vector<std::uint32_t> got = test::outputs<std::uint32_t>(dev, k, 8 * 4 * 2, grid(8, 4, 2));
  for (std::uint32_t z = 0; z < 2; ++z)
    for (std::uint32_t y = 0; y < 4; ++y)
      for (std::uint32_t x = 0; x < 8; ++x) {
        std::uint32_t lx = x % 4, ly = y % 2, lz = z % 2;
        REQUIRE(got[x + 8 * (y + 4 * z)] == (lx + 4 * (ly + 2 * lz)) * 1000 + lx * 100 + ly * 10 + lz);
      }
}

TEST_CASE("a kernel may require the subgroup size it is written for") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::uint32_t size = dev.info().subgroup_size;
  KernelOptions options = workgroup(64);
  options.subgroup_size = size;
  auto k = kernel("fixed_subgroup", [](WriteBuffer<std::uint32_t> out) {
    out[global_id().x()] = subgroup_size();
  }, options);
  CHECK(test::outputs<std::uint32_t>(dev, k, 64, grid(64)) == std::vector<std::uint32_t>(64, size));
}
