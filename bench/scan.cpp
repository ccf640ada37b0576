// Inclusive sum scan of uint32 (single pass, decoupled look-back) against CUB's device
// scan (cupy.cumsum) and the copy bound. Also times the reduce-then-scan mode.
#include "stdlib_bench.hpp"

using namespace sprig;
using namespace stdlib_bench;

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  bool cpu = gpu.info().type == "cpu";
  Args args = parse(argc, argv, cpu ? std::vector<int>{16, 20, 24} : std::vector<int>{20, 24, 26, 28});
  print_header(gpu, "inclusive_scan<uint32, plus>", "CUB (cupy.cumsum)");
  std::vector<std::pair<int, double>> two_pass;
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (!fits(gpu, n * 4)) continue;
    auto in = gpu.alloc<std::uint32_t>(n), out = gpu.alloc<std::uint32_t>(n);
    {
      auto s = gpu.sequence();
      s.fill(in, 1);
      s.run_and_wait();
    }
    auto op = plus<std::uint32_t>();
    double ms = time_ms(gpu, args.repeat, [&](Sequence& s) { inclusive_scan(gpu, s, in, out, op); });
    double rts = time_ms(gpu, args.repeat, [&](Sequence& s) {
      inclusive_scan(gpu, s, in, out, op, ScanOptions{ScanMode::ReduceThenScan});
    });
    two_pass.emplace_back(log_n, rts);
    if (gpu.download(out)[n - 1] != n) std::printf("WRONG RESULT at 2^%d\n", log_n);
    print_row(log_n, ms, peer(args, "cupy.cumsum", log_n), copy_ms(gpu, n * 4, args.repeat));
  }
  std::printf("\nreduce-then-scan mode (3 passes):\n");
  for (auto [log_n, ms] : two_pass) std::printf("  2^%d: %.4f ms\n", log_n, ms);
}
