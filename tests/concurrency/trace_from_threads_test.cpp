// Tracing uses a thread-local builder and a process-wide type table: kernels traced on
// many threads at once must come out exactly as if traced one at a time, and pipelines
// for them must be built once per distinct kernel even when threads ask together.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/dsl/printer.hpp"
#include "sprig/sprig.hpp"
#include "thread_team.hpp"

using namespace sprig;

namespace {

constexpr std::size_t kThreads = 8;
constexpr std::size_t kTracesPerThread = 40;
constexpr std::size_t kWords = 64;

// The same definition on every thread: a loop, a branch and a struct-free body.
auto same_kernel() {
  return kernel("same_everywhere", [](ReadBuffer<std::uint32_t> x, Buffer<std::uint32_t> y) {
    UInt i = global_id().x();
    if_(i < y.size(), [&] {
      Var<std::uint32_t> total = x[i];
      for_(0u, 4u, [&](UInt r) { total = total * 3u + r; });
      y[i] = total;
    });
  }, workgroup(64));
}

// A different kernel per `constant`: it adds that constant.
auto adding_kernel(std::uint32_t constant) {
  return kernel("add_" + std::to_string(constant), [constant](Buffer<std::uint32_t> y) {
    UInt i = global_id().x();
    if_(i < y.size(), [&] { y[i] = y[i] + UInt(constant); });
  }, workgroup(64));
}

std::uint32_t same_kernel_result(std::uint32_t x) {
  std::uint32_t total = x;
  for (std::uint32_t r = 0; r < 4; ++r) total = total * 3u + r;
  return total;
}

}  // namespace

TEST_CASE("kernels traced on eight threads at once equal the same kernels traced on one") {
  const auto reference = same_kernel();
  const std::string reference_text = ir::print(*reference.ir(), false);
  std::atomic<std::size_t> different{0};
  std::mutex mutex;
  std::set<std::uint64_t> distinct_hashes;
  test::run_on_threads(kThreads, [&](std::size_t t) {
    for (std::size_t j = 0; j < kTracesPerThread; ++j) {
      auto same = same_kernel();
      if (same.hash() != reference.hash() || ir::print(*same.ir(), false) != reference_text) ++different;
      auto distinct = adding_kernel(std::uint32_t(t * kTracesPerThread + j));
      std::lock_guard lock(mutex);
      distinct_hashes.insert(distinct.hash());
    }
  });
  CHECK(different == 0);
  CHECK(distinct_hashes.size() == kThreads * kTracesPerThread);
}

TEST_CASE("kernels traced and launched on eight threads at once get one pipeline each and run right", "[vulkan]") {
  vk::Device device = vk::Device::best();
  constexpr std::size_t kDistinctPerThread = 4;
  std::atomic<std::size_t> wrong{0};
  test::run_on_threads(kThreads, [&](std::size_t t) {
    std::vector<std::uint32_t> input(kWords);
    for (std::size_t i = 0; i < kWords; ++i) input[i] = std::uint32_t(i + t);
    auto x = device.upload(input);
    auto y = device.alloc<std::uint32_t>(kWords);
    device.run(same_kernel(), grid(kWords), x, y);
    std::vector<std::uint32_t> output = device.download(y);
    for (std::size_t i = 0; i < kWords; ++i) wrong += output[i] != same_kernel_result(input[i]) ? 1 : 0;
    for (std::size_t j = 0; j < kDistinctPerThread; ++j) {
      auto constant = std::uint32_t(1000 * (t + 1) + j);
      auto z = device.upload(std::vector<std::uint32_t>(kWords, 7));
      device.run(adding_kernel(constant), grid(kWords), z);
      for (std::uint32_t word : device.download(z)) wrong += word != 7 + constant ? 1 : 0;
    }
  });
  CHECK(wrong == 0);
  // Every distinct kernel once, and the shared one once although eight threads raced for it.
  CHECK(device.kernel_times().size() == kThreads * kDistinctPerThread + 1);
}
