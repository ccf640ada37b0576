// Stream pipelines: map + filter + map over uint32 (50% kept).
//  1. Data already on the device (gpu::DevicePipeline): against the bytes-moved bound
//     (read n, write the kept half), derived from a plain copy kernel timed in the same run.
//  2. End to end from host memory (values | ... | gpu::collect, and a reused gpu::Pipeline):
//     against the host<->device copies measured in the same run: Device::write of the same
//     bytes, one memcpy of them into a host-visible buffer, and Device::read of the kept
//     results. count moves the input only; collect moves the input and the results.
//
//  3. The same end to end over several devices (gpu::collect(devices), gpu::count(devices),
//     --devices LIST, default all) against the first device alone, in the same run;
//     skipped when there is one device.
//
//   bench_pipeline [--sizes 20,24,28] [--repeat 20] [--devices all]
#include <chrono>

#include "stdlib_bench.hpp"

using namespace sprig;
using namespace stdlib_bench;

namespace {

auto chain() {
  return gpu::map([](UInt x) { return x * 2654435761u; }) | gpu::filter([](UInt x) { return (x & 0x100u) == 0u; }) |
         gpu::map([](UInt x) { return x ^ 0x5555u; });
}

template <class F>
double wall_ms(int repeat, F&& f) {
  f();  // warm-up: kernels traced, buffers first touched
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  bool cpu = gpu.info().type == "cpu";
  Args args = parse(argc, argv, cpu ? std::vector<int>{20, 22} : std::vector<int>{24, 26, 28});
  using Chain = decltype(chain());

  std::printf("map + filter (50%% kept) + map over uint32 on %s (%s)\n\n", gpu.name().c_str(), gpu.info().backend.c_str());
  std::printf("## 1. Data on the device\n\n");
  std::string breakdown;
  std::printf("| elements | pipeline ms | copy kernel ms (n words) | bytes-moved bound ms | G elements/s | fraction of bound |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (!fits(gpu, n * 4)) {
      std::printf("| 2^%d | does not fit one binding of %s |\n", log_n, gpu.name().c_str());
      continue;
    }
    std::vector<std::uint32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i);
    auto in = gpu.upload(host);
    auto out = gpu.alloc<std::uint32_t>(n);
    gpu::DevicePipeline<std::uint32_t, Chain> pipeline(gpu, chain(), n);
    double ms = time_ms(gpu, args.repeat, [&](Sequence& s) { pipeline.record(s, in, out); });
    std::size_t kept = pipeline.result_count(), expected = 0;
    for (std::size_t i = 0; i < n; ++i) expected += ((std::uint32_t(i) * 2654435761u) & 0x100u) == 0;
    if (kept != expected) std::printf("WRONG RESULT at 2^%d: %zu kept, expected %zu\n", log_n, kept, expected);
    double copy = copy_ms(gpu, n * 4, args.repeat);
    // A copy reads and writes n words; the pipeline must read n and write `kept`.
    double bound = copy * (1.0 + double(kept) / double(n)) / 2;
    std::printf("| 2^%d | %.4f | %.4f | %.4f | %.2f | %.3f |\n", log_n, ms, copy, bound, double(n) / ms / 1e6, bound / ms);
    std::fflush(stdout);
    if (log_n == args.log_sizes.back()) {
      auto s = gpu.sequence();
      pipeline.record(s, in, out);
      s.run_and_wait();
      for (const LaunchTiming& t : s.timings()) breakdown += "  " + t.kernel + ": " + std::to_string(t.gpu_ms) + " ms\n";
    }
  }
  if (!breakdown.empty()) std::printf("\nPer kernel at the largest size (timestamps):\n%s", breakdown.c_str());

  std::printf("\n## 2. End to end from host memory (gpu::collect, default chunks and buffering)\n\n");
  std::printf("| elements | chunk | collect ms | reused gpu::Pipeline collect ms | its count ms | input GB/s (reused collect) | write to device-local GB/s | memcpy to host-visible GB/s | read from device-local GB/s | count: fraction of write | reused collect: fraction of write + read |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    std::vector<std::uint32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i);
    int repeat = std::max(1, args.repeat / 4);
    std::size_t results = 0;
    double ms = wall_ms(repeat, [&] { results = (host | chain() | gpu::collect(gpu)).size(); });
    gpu::Pipeline<std::uint32_t, Chain> reused(gpu, chain());
    double reused_ms = wall_ms(repeat, [&] { results = reused.collect(host).size(); });
    double count_ms = wall_ms(repeat, [&] { results = reused.count(host); });
    std::size_t chunk = gpu::detail::chosen_chunk_elements({}, gpu.info(), 4);
    double write_ms = 1e30, mapped_ms = 1e30;
    std::size_t staged = std::min(n, chunk);  // one binding's worth at a time
    auto device_local = gpu.alloc<std::uint32_t>(staged);
    auto host_visible = gpu.alloc<std::uint32_t>(staged, MemoryKind::HostVisible);
    for (auto [buffer, result] : {std::pair{&device_local, &write_ms}, std::pair{&host_visible, &mapped_ms}}) {
      *result = wall_ms(repeat, [&] {
        for (std::size_t first = 0; first < n; first += staged)
          gpu.write(*buffer, std::span<const std::uint32_t>(host.data() + first, std::min(staged, n - first)));
      });
    }
    // The results: read back as many bytes as the pipeline keeps, a binding's worth at a time.
    std::vector<std::uint32_t> back(n);
    double read_ms = wall_ms(repeat, [&] {
      for (std::size_t first = 0; first < results; first += staged)
        gpu.read(device_local, std::span<std::uint32_t>(back.data() + first, std::min(staged, results - first)));
    });
    double bytes = double(n) * 4;
    std::printf("| 2^%d | %zu | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f | %.3f | %.3f |\n", log_n, chunk, ms, reused_ms,
                count_ms, bytes / reused_ms / 1e6, bytes / write_ms / 1e6, bytes / mapped_ms / 1e6,
                double(results) * 4 / read_ms / 1e6, write_ms / count_ms, (write_ms + read_ms) / reused_ms);
    std::fflush(stdout);
    (void)results;
  }

  std::string list = "all";
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--devices")) list = argv[i + 1];
  std::vector<vk::Device> opened = vk::Device::open_all(list);
  if (opened.size() < 2) return 0;
  std::vector<Device*> devices;
  for (auto& d : opened) devices.push_back(&d);
  std::printf("\n## 3. End to end from host memory on %zu devices (%s) against device 0 alone\n\n", devices.size(),
              list.c_str());
  std::printf("| elements | collect ms, device 0 | collect ms, all | ratio | count ms, device 0 | count ms, all | ratio | same results |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    std::vector<std::uint32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i);
    int repeat = std::max(1, args.repeat / 4);
    std::vector<std::uint32_t> one, all;
    double one_ms = wall_ms(repeat, [&] { one = host | chain() | gpu::collect(opened[0]); });
    double all_ms = wall_ms(repeat, [&] { all = host | chain() | gpu::collect(devices); });
    std::size_t counted = 0;
    double one_count = wall_ms(repeat, [&] { counted = host | chain() | gpu::count(opened[0]); });
    double all_count = wall_ms(repeat, [&] { counted = host | chain() | gpu::count(devices); });
    std::printf("| 2^%d | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx | %s |\n", log_n, one_ms, all_ms, one_ms / all_ms,
                one_count, all_count, one_count / all_count, one == all && counted == one.size() ? "yes" : "NO");
    std::fflush(stdout);
  }
}
