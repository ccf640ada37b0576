// Sum of uint32 against torch.sum and the read bound (half a copy of the same bytes).
#include "stdlib_bench.hpp"

using namespace sprig;
using namespace stdlib_bench;

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  bool cpu = gpu.info().type == "cpu";
  Args args = parse(argc, argv, cpu ? std::vector<int>{16, 20, 24} : std::vector<int>{20, 24, 26, 28});
  print_header(gpu, "reduce<uint32, plus>", "torch.sum");
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (!fits(gpu, n * 4)) continue;
    auto in = gpu.alloc<std::uint32_t>(n), result = gpu.alloc<std::uint32_t>(1);
    {
      auto s = gpu.sequence();
      s.fill(in, 1);
      s.run_and_wait();
    }
    auto op = plus<std::uint32_t>();
    double ms = time_ms(gpu, args.repeat, [&](Sequence& s) { reduce(gpu, s, in, result, op); });
    if (gpu.download(result)[0] != n) std::printf("WRONG RESULT at 2^%d\n", log_n);
    // Reading n elements once: half of a copy's traffic.
    print_row(log_n, ms, peer(args, "torch.sum", log_n), copy_ms(gpu, n * 4, args.repeat) / 2);
  }
}
