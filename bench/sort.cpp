// Radix sort of uint32 keys (and of pairs) against CUB's radix sort (cupy.sort for keys,
// torch.sort for pairs) and the bytes-moved bound of an LSD sort with 8-bit digits: one
// read for the histogram, then a read and a write per pass.
#include <random>

#include "stdlib_bench.hpp"

using namespace sprig;
using namespace stdlib_bench;

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  bool cpu = gpu.info().type == "cpu";
  Args args = parse(argc, argv, cpu ? std::vector<int>{16, 20} : std::vector<int>{20, 22, 24, 26, 28});
  for (bool pairs : {false, true}) {
    print_header(gpu, pairs ? "radix_sort<uint32 keys, uint32 values>" : "radix_sort<uint32>",
                 pairs ? "torch.sort (pairs)" : "CUB (cupy.sort)");
    for (int log_n : args.log_sizes) {
      std::size_t n = std::size_t(1) << log_n;
      if (!fits(gpu, n * 4)) continue;
      std::vector<std::uint32_t> host(n);
      std::mt19937 rng(log_n);
      for (auto& k : host) k = rng();
      auto pristine = gpu.upload(host);
      auto keys = gpu.alloc<std::uint32_t>(n), values = gpu.alloc<std::uint32_t>(n);
      // Each repetition sorts fresh random keys: the copy that restores them is timed
      // separately and subtracted.
      double restore = copy_ms(gpu, n * 4, args.repeat) * (pairs ? 2 : 1);
      double ms = time_ms(gpu, args.repeat, [&](Sequence& s) {
        s.copy(pristine, keys);
        if (pairs) {
          s.copy(pristine, values);
          radix_sort(gpu, s, keys, values);
        } else {
          radix_sort(gpu, s, keys);
        }
      }) - restore;
      std::vector<std::uint32_t> got = gpu.download(keys);
      std::sort(host.begin(), host.end());
      if (got != host) std::printf("WRONG RESULT at 2^%d\n", log_n);
      double copy = copy_ms(gpu, n * 4, args.repeat);
      double words = pairs ? 2 : 1;
      double bound = copy * (0.5 + 4 * words);  // histogram read + 4 passes of read+write
      print_row(log_n, ms, peer(args, pairs ? "torch.sort.pairs" : "cupy.sort", log_n), bound);
      if (log_n == args.log_sizes.back()) {  // where the time goes, by timestamp queries
        auto one = gpu.sequence();
        one.copy(pristine, keys);
        if (pairs) radix_sort(gpu, one, keys, values);
        else radix_sort(gpu, one, keys);
        one.run_and_wait();
        for (const LaunchTiming& t : one.timings()) std::printf("    %s: %.3f ms\n", t.kernel.c_str(), t.gpu_ms);
      }
    }
    std::printf("\n");
  }
}
