// Radix sort of uint32 keys (and of pairs, and of uint64 keys up to 2^27) against CUB's
// radix sort (cupy.sort for keys, torch.sort for pairs) and the bytes-moved bound of an LSD
// sort with 8-bit digits: one read for the histogram, then a read and a write per pass;
// then pairs under memory budgets of a half to an eighth of the sort's temporaries.
#include <array>
#include <random>

#include "stdlib_bench.hpp"

using namespace sprig;
using namespace stdlib_bench;

static std::vector<std::uint32_t> random_keys(int log_n) {
  std::vector<std::uint32_t> keys(std::size_t(1) << log_n);
  std::mt19937 rng(log_n);
  for (auto& k : keys) k = rng();
  return keys;
}

static std::array<std::uint64_t, 3> power_sums(const std::vector<std::uint32_t>& v) {
  std::array<std::uint64_t, 3> sums{};
  for (std::uint64_t x : v) {
    sums[0] += x;
    sums[1] += x * x;
    sums[2] += x * x * x;
  }
  return sums;
}

// Sorted, and the same multiset as `input` (sums of powers): the tests compare with
// std::stable_sort; a full CPU sort of 2^28 keys here would take longer than the run.
static void check_sorted(Device& gpu, const DeviceBuffer<std::uint32_t>& keys, const std::vector<std::uint32_t>& input,
                         int log_n) {
  std::vector<std::uint32_t> got = gpu.download(keys);
  if (!std::is_sorted(got.begin(), got.end()) || power_sums(got) != power_sums(input))
    std::printf("WRONG RESULT at 2^%d\n", log_n);
}

// 2^log_n random keys on the device and a pristine copy of them. Each repetition of a
// timing restores the keys (and, for pairs, the values: the same words) before sorting them;
// the restoring is timed alone and subtracted.
struct SortInput {
  std::vector<std::uint32_t> host;
  DeviceBuffer<std::uint32_t> pristine, keys, values;

  SortInput(Device& gpu, int log_n)
      : host(random_keys(log_n)),
        pristine(gpu.upload(host)),
        keys(gpu.alloc<std::uint32_t>(host.size())),
        values(gpu.alloc<std::uint32_t>(host.size())) {}
  void restore(Sequence& s, bool pairs) const {
    record_copy(s, pristine, keys);
    if (pairs) record_copy(s, pristine, values);
  }
};

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
      SortInput input(gpu, log_n);
      const auto& [host, pristine, keys, values] = input;
      auto restore = [&](Sequence& s) { input.restore(s, pairs); };
      double restore_ms = time_ms(gpu, args.repeat, restore);
      SortScratch<std::uint32_t> scratch;  // allocated once, as a program sorting often would
      gpu.reset_peak_memory();
      double ms = time_ms(gpu, args.repeat, [&](Sequence& s) {
        restore(s);
        if (pairs) radix_sort(gpu, s, keys, values, scratch);
        else radix_sort(gpu, s, keys, scratch);
      }) - restore_ms;
      // The scratch was allocated by the first call and is still held: a peak above what is
      // held now is memory some call allocated and gave back.
      const MemoryUsage sort_memory = gpu.memory_usage();
      check_sorted(gpu, keys, host, log_n);
      double copy = copy_ms(gpu, n * 4, args.repeat);
      double words = pairs ? 2 : 1;
      double bound = copy * (0.5 + 4 * words);  // histogram read + 4 passes of read+write
      print_row(log_n, ms, peer(args, pairs ? "torch.sort.pairs" : "cupy.sort", log_n), bound);
      std::printf("    device memory while sorting: peak %.1f MiB (keys, values, their pristine copy and the scratch of "
                  "%.1f MiB); allocated per call after the first: %.1f MiB\n",
                  double(sort_memory.peak_bytes) / (1 << 20), double(scratch.device_bytes()) / (1 << 20),
                  double(sort_memory.peak_bytes - sort_memory.in_use_bytes) / (1 << 20));
      if (log_n == args.log_sizes.back()) {  // where the time goes
        auto histograms = gpu.alloc<std::uint32_t>(4 * 256);
        double histogram = time_ms(gpu, args.repeat, [&](Sequence& s) {
          detail::record_digit_histogram(gpu.info(), s, keys, n, histograms, 0, 32);
        });
        std::printf("    digit histogram of all passes: %.3f ms (one read of the keys: %.3f ms)\n", histogram,
                    copy / 2);
        std::printf("    each of 4 digit passes: %.3f ms (a read and a write of %s: %.3f ms)\n",
                    (ms - histogram) / 4, pairs ? "keys and values" : "the keys", copy * words);
      }
    }
    std::printf("\n");
  }

  // 64-bit keys (eight passes), which plotting and users with wide keys sort.
  print_header(gpu, "radix_sort<uint64>", "CUB (cupy.sort, uint64)");
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (log_n > 27 || !fits(gpu, n * 8)) continue;
    std::vector<std::uint64_t> host(n);
    std::mt19937_64 rng(log_n);
    for (auto& k : host) k = rng();
    auto pristine = gpu.upload(host);
    auto keys = gpu.alloc<std::uint64_t>(n);
    auto restore = [&](Sequence& s) { s.copy(pristine, keys); };
    double restore_ms = time_ms(gpu, args.repeat, restore);
    SortScratch<std::uint64_t> scratch;
    double ms = time_ms(gpu, args.repeat, [&](Sequence& s) {
      restore(s);
      radix_sort(gpu, s, keys, scratch);
    }) - restore_ms;
    std::vector<std::uint64_t> got = gpu.download(keys), expected = host;
    std::sort(expected.begin(), expected.end());
    if (got != expected) std::printf("WRONG RESULT at 2^%d (uint64)\n", log_n);
    double bound = copy_ms(gpu, n * 8, args.repeat) * (0.5 + 8);  // histogram read + 8 passes of read+write
    print_row(log_n, ms, peer(args, "cupy.sort.u64", log_n), bound);
  }
  std::printf("\n");

  // Both pass modes at every size (keys only): why SortMode::Auto is OneSweep.
  std::printf("radix_sort<uint32> by pass mode (ms)\n\n| elements | OneSweep | CountScanScatter |\n|---|---|---|\n");
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (!fits(gpu, n * 4)) continue;
    SortInput input(gpu, log_n);
    const auto& [host, pristine, keys, values] = input;
    double restore_ms = time_ms(gpu, args.repeat, [&](Sequence& s) { input.restore(s, false); });
    double ms[2];
    for (SortMode mode : {SortMode::OneSweep, SortMode::CountScanScatter}) {
      SortScratch<std::uint32_t> scratch;
      ms[mode == SortMode::OneSweep ? 0 : 1] = time_ms(gpu, args.repeat, [&](Sequence& s) {
        input.restore(s, false);
        radix_sort(gpu, s, keys, scratch, SortOptions{0, 32, mode});
      }) - restore_ms;
      check_sorted(gpu, keys, host, log_n);
    }
    std::printf("| 2^%d | %.4f | %.4f |\n", log_n, ms[0], ms[1]);
    std::fflush(stdout);
  }

  // Tiles a workgroup sorts one after another (SortOptions::tiles_per_workgroup): where
  // default_tiles_per_workgroup's rule comes from.
  std::printf("radix_sort<uint32> by tiles a workgroup (ms; the first column is the sort's own choice)\n\n"
              "| elements | keys, chosen | 1 | 2 | 4 | 8 | pairs, chosen | 1 | 4 |\n|---|---|---|---|---|---|---|---|---|\n");
  for (int log_n : args.log_sizes) {
    std::size_t n = std::size_t(1) << log_n;
    if (!fits(gpu, n * 8)) continue;
    SortInput input(gpu, log_n);
    const auto& [host, pristine, keys, values] = input;
    std::printf("| 2^%d", log_n);
    for (bool pairs : {false, true}) {
      auto restore = [&](Sequence& s) { input.restore(s, pairs); };
      double restore_ms = time_ms(gpu, args.repeat, restore);
      for (std::uint32_t tiles : pairs ? std::vector<std::uint32_t>{0, 1, 4} : std::vector<std::uint32_t>{0, 1, 2, 4, 8}) {
        SortScratch<std::uint32_t> scratch;
        SortOptions options;
        options.tiles_per_workgroup = tiles;
        double ms = time_ms(gpu, args.repeat, [&](Sequence& s) {
          restore(s);
          if (pairs) radix_sort(gpu, s, keys, values, scratch, options);
          else radix_sort(gpu, s, keys, scratch, options);
        }) - restore_ms;
        check_sorted(gpu, keys, host, log_n);
        std::printf(" | %.4f", ms);
      }
    }
    std::printf(" |\n");
    std::fflush(stdout);
  }
  std::printf("\n");

  // Under a memory budget (SortOptions::memory_budget): chunks sorted and merged, at the
  // largest size. The budget's fraction of what the plain sort's temporaries take.
  {
    const int log_n = args.log_sizes.back();
    const std::size_t n = std::size_t(1) << log_n;
    std::printf("\nradix_sort<uint32> pairs of 2^%d under a memory budget\n\n"
                "| budget | MiB | transients MiB | ms | chunk sorts ms | copies ms | merges ms |\n"
                "|---|---|---|---|---|---|---|\n",
                log_n);
    SortInput input(gpu, log_n);
    const auto& [host, pristine, keys, values] = input;
    auto restore = [&](Sequence& s) { input.restore(s, true); };
    const double restore_ms = time_ms(gpu, args.repeat, restore);
    const std::uint64_t unconstrained = radix_sort_scratch_bytes<std::uint32_t>(gpu.info(), n, true);
    for (std::uint64_t divisor : {1, 2, 4, 8}) {
      SortOptions options{.memory_budget = unconstrained / divisor};
      auto planned = gpu.sequence();
      radix_sort(gpu, planned, keys, values, options);
      const double transients = double(planned.memory_plan().scratch_bytes);
      const double ms = time_ms(gpu, args.repeat, [&](Sequence& s) {
        restore(s);
        radix_sort(gpu, s, keys, values, options);
      }) - restore_ms;
      check_sorted(gpu, keys, host, log_n);
      // Where the time goes, from one more run's timestamps: the merges, the copies of chunks
      // in and out, and the rest (the chunks' own sorts).
      auto restored = gpu.sequence();
      restore(restored);
      restored.run_and_wait();
      auto profiled = gpu.sequence();
      radix_sort(gpu, profiled, keys, values, options);
      profiled.run_and_wait();
      double merges = 0, copies = 0, sorts = 0;
      for (const CommandProfile& command : profiled.profile().commands) {
        if (command.kind == CommandKind::Copy) copies += command.duration_ms();
        else if (command.name.find("merge_runs") != std::string::npos) merges += command.duration_ms();
        else sorts += command.duration_ms();
      }
      std::printf("| 1/%llu | %.1f | %.1f | %.3f | %.3f | %.3f | %.3f |\n", static_cast<unsigned long long>(divisor),
                  double(options.memory_budget) / (1 << 20), transients / (1 << 20), ms, sorts, copies, merges);
      std::fflush(stdout);
    }
  }
  print_pipeline_statistics(gpu);
}
