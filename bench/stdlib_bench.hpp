// Shared pieces of the stdlib benchmarks (bench_scan, bench_reduce, bench_compact,
// bench_sort): command-line sizes, wall-clock timing of repeated sequences, the copy
// bound measured on the same device, and peer timings read from bench/peers/cub_peers.py.
//
//   bench_scan [--sizes 20,24,28] [--repeat 20] [--peers peers.txt]
//
// Times are wall-clock per repetition of a sequence holding `repeat` repetitions, so they
// include everything an algorithm records (fills of its status words too), as a user sees
// it. The copy bound is a device copy of the same bytes on the same device.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/stdlib.hpp>

namespace stdlib_bench {

struct Args {
  std::vector<int> log_sizes;
  int repeat = 20;
  std::map<std::pair<std::string, int>, double> peers;  // (operation, log2 n) -> ms
};

inline Args parse(int argc, char** argv, std::vector<int> default_sizes) {
  Args a;
  a.log_sizes = std::move(default_sizes);
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--sizes")) {
      a.log_sizes.clear();
      std::stringstream s(argv[i + 1]);
      for (std::string part; std::getline(s, part, ',');) a.log_sizes.push_back(std::atoi(part.c_str()));
    } else if (!std::strcmp(argv[i], "--repeat")) {
      a.repeat = std::atoi(argv[i + 1]);
    } else if (!std::strcmp(argv[i], "--peers")) {
      std::ifstream in(argv[i + 1]);
      std::string op;
      int log_n;
      double ms;
      while (in >> op >> log_n >> ms) a.peers[{op, log_n}] = ms;
    }
  }
  return a;
}

inline double peer(const Args& a, const std::string& op, int log_n) {
  auto it = a.peers.find({op, log_n});
  return it == a.peers.end() ? 0 : it->second;
}

// Milliseconds per repetition: `record` is called `repeat` times into one sequence after
// one warm-up sequence (pipelines, first-touch allocations). Rounds go on for at least
// half a second and the best counts: a GPU that idled while the host checked the last
// result clocks up again only after some tenths of a second of work.
inline double time_ms(sprig::Device& device, int repeat, const std::function<void(sprig::Sequence&)>& record) {
  {
    auto warm = device.sequence();
    record(warm);
    warm.run_and_wait();
  }
  double best = 1e30;
  auto first = std::chrono::steady_clock::now();
  for (int round = 0; round < 3 || std::chrono::steady_clock::now() - first < std::chrono::milliseconds(500); ++round) {
    auto s = device.sequence();
    for (int r = 0; r < repeat; ++r) record(s);
    auto start = std::chrono::steady_clock::now();
    s.run_and_wait();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / repeat;
    best = std::min(best, ms);
  }
  return best;
}

// Records a device-to-device copy of `from` into `to` (as many words as `from` holds) by a
// DSL kernel, 16 coalesced words per invocation. (A kernel rather than vkCmdCopyBuffer,
// which is slower: docs/benchmarks.md, "Parallel primitives".)
inline void record_copy(sprig::Sequence& s, const sprig::DeviceBuffer<std::uint32_t>& from,
                        const sprig::DeviceBuffer<std::uint32_t>& to) {
  using namespace sprig;
  static constexpr detail::TileShape shape{256, 16};
  auto trace = [] {
    return kernel("copy_words", [](ReadBuffer<std::uint32_t> from, WriteBuffer<std::uint32_t> to) {
      for (std::uint32_t j = 0; j < shape.items; ++j) {
        UInt i = detail::linear_workgroup_id() * shape.elements() + j * shape.invocations + local_index();
        if_(i < from.size(), [&] { to[i] = from[i]; });
      }
    }, workgroup(shape.invocations));
  };
  const auto& copy = detail::cached_kernel<decltype(trace())>("bench/copy_words", trace);
  s.run(copy, detail::tile_grid(shape.tiles_for(from.size()), shape), from, to);
}

// The time a copy of `bytes` takes: the bound for an algorithm that reads and writes that
// many bytes once. The faster of two copy kernels: record_copy's 16 words per invocation,
// and one 16-byte vector per invocation; which one wins depends on the device
// (docs/benchmarks.md, "Parallel primitives").
inline double copy_ms(sprig::Device& device, std::size_t bytes, int repeat) {
  using namespace sprig;
  static constexpr detail::TileShape shape{256, 1};
  auto trace = [] {
    return kernel("copy_vectors", [](ReadBuffer<uvec4> from, WriteBuffer<uvec4> to) {
      UInt i = detail::linear_workgroup_id() * shape.invocations + local_index();
      if_(i < from.size(), [&] { to[i] = from[i]; });
    }, workgroup(shape.invocations));
  };
  const auto& copy_vectors = detail::cached_kernel<decltype(trace())>("bench/copy_vectors", trace);
  double words_ms = 0;
  {
    auto a = device.alloc<std::uint32_t>((bytes + 3) / 4), b = device.alloc<std::uint32_t>((bytes + 3) / 4);
    words_ms = time_ms(device, repeat, [&](Sequence& s) { record_copy(s, a, b); });
  }
  std::size_t vectors = (bytes + 15) / 16;
  auto a = device.alloc<uvec4>(vectors), b = device.alloc<uvec4>(vectors);
  double vectors_ms = time_ms(device, repeat, [&](Sequence& s) {
    s.run(copy_vectors, detail::tile_grid(shape.tiles_for(vectors), shape), a, b);
  });
  return std::min(words_ms, vectors_ms);
}

inline bool fits(sprig::Device& device, std::size_t bytes) { return bytes <= device.info().max_buffer_bytes; }

inline void print_header(sprig::Device& device, const char* what, const char* peer_name) {
  std::printf("%s on %s (%s)\n\n", what, device.name().c_str(), device.info().backend.c_str());
  std::printf("| elements | sprig ms | %s ms | sprig / peer speed | G elements/s | fraction of copy bound |\n", peer_name);
  std::printf("|---|---|---|---|---|---|\n");
}

inline void print_row(int log_n, double ms, double peer_ms, double bound_ms) {
  double n = double(std::size_t(1) << log_n);
  char peer_text[32] = "-", ratio_text[32] = "-";
  if (peer_ms > 0) {
    std::snprintf(peer_text, sizeof peer_text, "%.4f", peer_ms);
    std::snprintf(ratio_text, sizeof ratio_text, "%.3f", peer_ms / ms);
  }
  std::printf("| 2^%d | %.4f | %s | %s | %.2f | %.3f |\n", log_n, ms, peer_text, ratio_text, n / ms / 1e6,
              bound_ms / ms);
  std::fflush(stdout);
}

// Under SPRIG_PROFILE=1, the driver's statistics (registers, spills, shared memory) of
// every pipeline the run built: what decides how many workgroups an SM holds.
inline void print_pipeline_statistics(const sprig::vk::Device& device) {
  if (!device.pipeline_statistics()) return;
  std::printf("\n| kernel | driver statistics |\n|---|---|\n");
  for (const sprig::vk::KernelTimes& k : device.kernel_times())
    std::printf("| %s | %s |\n", k.kernel.c_str(), k.statistics->text().c_str());
}

}  // namespace stdlib_bench
