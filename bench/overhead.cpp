// The host's fixed costs per runtime operation, microseconds each: what a streamed
// pipeline pays per chunk besides moving its bytes. Each row repeats one operation and
// reports the median of its rounds.
//
//   bench_overhead [--rounds 200]
//
// Rows: making and dropping an empty sequence; a sequence that fills 4 bytes, submitted
// and waited for; the same with one dispatch of a one-workgroup kernel; recording a
// copy_if of 2^24 elements without submitting it; small reads and writes of device-local,
// host-visible and host-cached buffers; allocating and freeing buffers of 4 KiB and 256 MiB.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/stdlib.hpp>

using namespace sprig;

namespace {

double median_us(int rounds, const std::function<void()>& operation) {
  operation();  // warm-up: pipelines, first allocations
  std::vector<double> us;
  for (int r = 0; r < rounds; ++r) {
    auto start = std::chrono::steady_clock::now();
    operation();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
  return us[us.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 200;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--rounds")) rounds = std::max(1, std::atoi(argv[i + 1]));

  vk::Device device = vk::Device::best();
  std::printf("device: %s, median of %d rounds\n\n| operation | us |\n|---|---|\n", device.name().c_str(), rounds);
  auto row = [&](const char* what, const std::function<void()>& operation) {
    std::printf("| %s | %.1f |\n", what, median_us(rounds, operation));
    std::fflush(stdout);
  };

  auto word = device.alloc<std::uint32_t>(1);
  auto one_workgroup = kernel("overhead_store", [](Buffer<std::uint32_t> out) {
    if_(local_index() == 0u, [&] { out[0u] = 1u; });
  }, workgroup(64));

  row("sequence made and dropped", [&] { auto s = device.sequence(); });
  row("sequence: fill 4 bytes, submit, wait", [&] {
    auto s = device.sequence();
    s.fill(word, 0u);
    s.run_and_wait();
  });
  row("sequence: one dispatch, submit, wait", [&] {
    auto s = device.sequence();
    s.run(one_workgroup, grid(64), word);
    s.run_and_wait();
  });
  row("sequence: 8 dispatches, submit, wait", [&] {
    auto s = device.sequence();
    for (int k = 0; k < 8; ++k) s.run(one_workgroup, grid(64), word);
    s.run_and_wait();
  });

  const std::size_t n = std::size_t(1) << 24;
  auto in = device.alloc<std::uint32_t>(n), out = device.alloc<std::uint32_t>(n);
  auto kept = device.alloc<std::uint32_t>(1);
  auto even = [](UInt x) { return (x & 1u) == 0u; };
  row("copy_if 2^24 recorded, not submitted", [&] {
    auto s = device.sequence();
    copy_if(device, s, in, out, kept, even);
  });

  std::uint32_t value = 7;
  for (MemoryKind kind : {MemoryKind::DeviceLocal, MemoryKind::HostVisible, MemoryKind::HostCached}) {
    const char* name = kind == MemoryKind::DeviceLocal   ? "device-local"
                       : kind == MemoryKind::HostVisible ? "host-visible"
                                                         : "host-cached";
    auto buffer = device.alloc<std::uint32_t>(1024, kind);
    std::string write = std::string("write 4 bytes, ") + name, read = std::string("read 4 bytes, ") + name;
    row(write.c_str(), [&] { device.write(buffer, std::span<const std::uint32_t>(&value, 1)); });
    row(read.c_str(), [&] { device.read(buffer, std::span<std::uint32_t>(&value, 1)); });
  }

  row("alloc and free 4 KiB, device-local", [&] { auto b = device.alloc<std::uint32_t>(1024); });
  row("alloc and free 256 MiB, device-local", [&] { auto b = device.alloc<std::uint32_t>(std::size_t(1) << 26); });
  row("alloc and free 256 MiB, host-cached",
      [&] { auto b = device.alloc<std::uint32_t>(std::size_t(1) << 26, MemoryKind::HostCached); });
  return 0;
}
