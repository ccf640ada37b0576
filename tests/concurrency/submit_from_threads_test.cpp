// Eight host threads each submit 1,000 tiny sequences to one device. Catch2 v2 assertions
// are not thread-safe, so the threads count what went wrong and the test checks after.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/sprig.hpp"
#include "thread_team.hpp"

using namespace sprig;

namespace {

constexpr std::size_t kThreads = 8;
constexpr std::size_t kSequencesPerThread = 1000;
constexpr std::size_t kWords = 64;
// Every this many sequences a thread also allocates, uploads and downloads a buffer, so the
// allocator and the staging transfers are contended too.
constexpr std::size_t kTransferEvery = 50;

const auto& add_to_each() {
  static const auto k = kernel("add_to_each", [](UInt value, Buffer<std::uint32_t> data) {
    UInt i = global_id().x();
    if_(i < data.size(), [&] { data[i] = data[i] + value; });
  }, workgroup(64));
  return k;
}

struct Mismatches {
  std::atomic<std::size_t> sums{0}, transfers{0};
};

// Thread t adds t + 1 to its own buffer once per sequence, starting from t.
void submit_sequences(Device& device, std::size_t t, Mismatches& wrong) {
  const auto value = std::uint32_t(t + 1);
  auto sum = device.upload(std::vector<std::uint32_t>(kWords, std::uint32_t(t)));
  for (std::size_t s = 0; s < kSequencesPerThread; ++s) {
    Sequence sequence = device.sequence();
    sequence.run(add_to_each(), grid(kWords), value, sum);
    sequence.run_and_wait();
    if (s % kTransferEvery == kTransferEvery - 1) {
      std::vector<std::uint32_t> pattern(kWords, std::uint32_t(s * kThreads + t));
      if (device.download(device.upload(pattern)) != pattern) ++wrong.transfers;
    }
  }
  const auto expected = std::uint32_t(t + kSequencesPerThread * value);
  for (std::uint32_t word : device.download(sum)) wrong.sums += word != expected ? 1 : 0;
}

void submit_from_threads(Device& device) {
  Mismatches wrong;
  test::run_on_threads(kThreads, [&](std::size_t t) { submit_sequences(device, t, wrong); });
  CHECK(wrong.sums == 0);
  CHECK(wrong.transfers == 0);
}

}  // namespace

TEST_CASE("eight threads each submitting 1,000 sequences to one Vulkan device all get the right results", "[vulkan]") {
  vk::Device device = vk::Device::best();
  submit_from_threads(device);
}

TEST_CASE("eight threads each submitting 1,000 sequences to one Vulkan device leave its memory where it started",
          "[vulkan]") {
  vk::Device device = vk::Device::best();
  {  // builds the pipeline and the staging buffer, which stay for the device's lifetime
    auto warm = device.upload(std::vector<std::uint32_t>(kWords));
    device.run(add_to_each(), grid(kWords), 1u, warm);
    (void)device.download(warm);
  }
  const vk::MemoryStats before = device.memory_stats();
  submit_from_threads(device);
  const vk::MemoryStats after = device.memory_stats();
  CHECK(after.allocations == before.allocations);
  CHECK(after.used_bytes == before.used_bytes);
  CHECK(after.blocks == before.blocks);
  CHECK(after.reserved_bytes == before.reserved_bytes);
  CHECK(device.kernel_times().size() == 1);
}

TEST_CASE("eight threads each submitting 1,000 sequences to one simulator all get the right results") {
  sim::Options options;
  options.analyses = sim::AnalysisOptions::none();  // the interpreter's speed, not its reports, is at stake
  sim::Device device(options);
  submit_from_threads(device);
}
