// Launches and sequences: many dispatches in one command buffer, several host threads,
// and the errors a wrong launch gets.
#include <thread>

#include "backends.hpp"

using namespace sprig;
using Catch::Contains;

namespace {

auto add_kernel() {
  return kernel("add", [](UInt delta, ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = in[i] + delta; });
  }, workgroup(64));
}

}  // namespace

TEST_CASE("eleven dispatches alternating direction between two buffer sets in one sequence") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto add = add_kernel();
  const std::size_t n = 1000;
  std::vector<std::uint32_t> start(n);
  for (std::uint32_t i = 0; i < n; ++i) start[i] = i;
  auto a1 = dev.upload(start), b1 = dev.alloc<std::uint32_t>(n);
  auto a2 = dev.upload(start), b2 = dev.alloc<std::uint32_t>(n);
  Sequence s = dev.sequence();
  for (std::uint32_t step = 0; step < 11; ++step) {
    // even steps: a -> b, odd steps: b -> a; each adds step + 1 (set 1) or 2 * (step + 1) (set 2)
    if (step % 2 == 0) {
      s.run(add, grid(n), step + 1, a1, b1);
      s.run(add, grid(n), 2 * (step + 1), a2, b2);
    } else {
      s.run(add, grid(n), step + 1, b1, a1);
      s.run(add, grid(n), 2 * (step + 1), b2, a2);
    }
  }
  s.run_and_wait();
  // Eleven steps end in b; their deltas add up to 1 + 2 + ... + 11 = 66.
  std::vector<std::uint32_t> r1 = dev.download(b1), r2 = dev.download(b2);
  for (std::uint32_t i = 0; i < n; ++i) {
    REQUIRE(r1[i] == i + 66);
    REQUIRE(r2[i] == i + 132);
  }
  std::vector<LaunchTiming> timings = s.timings();
  REQUIRE(timings.size() == 22);
  CHECK(timings[0].kernel == "add");
  CHECK(timings[0].gpu_ms >= 0.0);
}

TEST_CASE("many sequences submitted from several host threads at once") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto add = add_kernel();
  const std::size_t n = 512;
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<std::uint32_t> values(n, std::uint32_t(t));
      for (int round = 0; round < 5; ++round) {
        auto in = dev.upload(values);
        auto out = dev.alloc<std::uint32_t>(n);
        Sequence s = dev.sequence();
        s.run(add, grid(n), std::uint32_t(round), in, out).run(add, grid(n), 100u, out, in);
        s.submit();
        s.wait();
        std::vector<std::uint32_t> got = dev.download(in);
        if (got == std::vector<std::uint32_t>(n, std::uint32_t(t + round + 100))) ++ok[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(ok == std::vector<int>{5, 5, 5, 5});
}

TEST_CASE("a buffer of the wrong element type is a launch error naming the kernel and line") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto add = add_kernel();
  DeviceBuffer<float> floats = dev.alloc<float>(4);
  RawBuffer raw = floats;
  auto out = dev.alloc<std::uint32_t>(4);
  CHECK_THROWS_WITH(dev.run(add, grid(4), 1u, raw, out),
                    Contains("kernel 'add'") && Contains("launches_test.cpp") &&
                        Contains("expects a buffer of uint but got one of float"));
}

TEST_CASE("launch errors name the parameter as the kernel named it") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto add = kernel("add_named", [](UInt delta, ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = in[i] + delta; });
  }, workgroup(64).names("delta", "samples", "totals"));
  RawBuffer floats = dev.alloc<float>(4);
  auto in = dev.alloc<std::uint32_t>(4);
  auto out = dev.alloc<std::uint32_t>(4);
  // The element type of a RawBuffer, checked where every backend binds its arguments.
  CHECK_THROWS_WITH(dev.run(add, grid(4), 1u, floats, out),
                    Contains("kernel 'add_named'") && Contains("parameter 'samples' (launch argument 1)") &&
                        Contains("expects a buffer of uint but got one of float"));
  // A buffer of another device, caught by the backend's own launch check.
  sim::Device elsewhere;
  auto foreign = elsewhere.alloc<std::uint32_t>(4);
  CHECK_THROWS_WITH(dev.run(add, grid(4), 1u, in, foreign),
                    Contains("kernel 'add_named'") && Contains("parameter 'totals' (binding 1)") &&
                        Contains("launches_test.cpp"));
}

namespace launches_test {
struct Pair {
  float a, b;
};
SPRIG_STRUCT(Pair, a, b)
}  // namespace launches_test

TEST_CASE("a uniform of the wrong size is a launch error") {
  using launches_test::Pair;
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto k = kernel("sum_pair", [](Uniform<Pair> p, WriteBuffer<float> out) { out[0] = p[&Pair::a] + p[&Pair::b]; },
                  workgroup(1));
  auto out = dev.alloc<float>(1);
  std::vector<std::byte> too_small(4);
  CHECK_THROWS_WITH(dev.run(k, grid(1), std::span<const std::byte>(too_small), out),
                    Contains("kernel 'sum_pair'") && Contains("needs 16 bytes but got 4"));
  dev.run(k, grid(1), Pair{1.5f, 2.0f}, out);
  CHECK(dev.download(out) == std::vector<float>{3.5f});
}

TEST_CASE("the simulator reports an out-of-bounds write with the line and never touches other memory") {
  sim::Options lenient;
  lenient.strict = false;  // the error is the point: report it, do not throw
  sim::Device cpu(lenient);
  auto k = kernel("oob", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i + 2u] = i;  // writes past the end for the last two invocations
  }, workgroup(4));
  auto out = cpu.alloc<std::uint32_t>(4);
  auto guard = cpu.upload(std::vector<std::uint32_t>(4, 7u));
  cpu.run(k, grid(4), out);
  std::string report = [&] {
    std::ostringstream s;
    s << cpu.report();
    return s.str();
  }();
  CHECK_THAT(report, Contains("out of bounds") && Contains("launches_test.cpp"));
  CHECK(cpu.download(guard) == std::vector<std::uint32_t>(4, 7u));
}
