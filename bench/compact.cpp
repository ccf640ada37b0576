// copy_if of uint32 at 50% selectivity against torch.masked_select and the bytes-moved
// bound (read n, write n/2: three quarters of a copy); then against CUB's DeviceSelect::If
// with the same predicate (bench/peers/cub_select_if.cu) where the peers file has it.
#include <map>

#include "stdlib_bench.hpp"

using namespace sprig;
using namespace stdlib_bench;

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  bool cpu = gpu.info().type == "cpu";
  Args args = parse(argc, argv, cpu ? std::vector<int>{16, 20, 24} : std::vector<int>{20, 24, 26, 28});
  print_header(gpu, "copy_if<uint32> (50% kept)", "torch.masked_select");
  auto even = [](UInt x) { return (x & 1u) == 0u; };
  std::map<int, double> sprig_ms;
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (!fits(gpu, n * 4)) continue;
    std::vector<std::uint32_t> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = std::uint32_t(i * 2654435761u) >> 7;
    auto in = gpu.upload(host);
    auto out = gpu.alloc<std::uint32_t>(n), kept = gpu.alloc<std::uint32_t>(1);
    double ms = time_ms(gpu, args.repeat, [&](Sequence& s) { copy_if(gpu, s, in, out, kept, even); });
    std::size_t expected = std::count_if(host.begin(), host.end(), [](std::uint32_t x) { return x % 2 == 0; });
    if (gpu.download(kept)[0] != expected) std::printf("WRONG RESULT at 2^%d\n", log_n);
    print_row(log_n, ms, peer(args, "torch.masked_select", log_n),
              copy_ms(gpu, n * 4, args.repeat) * (1.0 + double(expected) / double(n)) / 2);
    sprig_ms[log_n] = ms;
  }
  bool header = false;
  for (const auto& [log_n, ms] : sprig_ms) {
    const double cub_ms = peer(args, "cub.select_if", log_n);
    if (cub_ms <= 0) continue;
    if (!header)
      std::printf("\nThe same predicate in CUB (cub::DeviceSelect::If)\n\n"
                  "| elements | sprig ms | DeviceSelect::If ms | DeviceSelect::If / sprig |\n|---|---|---|---|\n");
    header = true;
    std::printf("| 2^%d | %.4f | %.4f | %.3f |\n", log_n, ms, cub_ms, cub_ms / ms);
  }
}
