// The hashing library's throughput, each kernel against its roofline measured in the same
// run on the same device:
//   * SHA-256 of 7-, 32-, 55- and 64-byte messages, and Bitcoin's double SHA-256 of 80-byte
//     headers with the midstate precomputed (sha256d_search), and the search of 7-byte
//     candidates for a digest (sha256_search, hashcat's work): hashes/s against the
//     integer-throughput bound, which is an ARX loop's measured integer operations per second
//     divided by the operations one hash needs (counted from the standard), and compressions
//     per second against hashcat's published 16.2 G single-block hashes/s on an H100;
//   * BLAKE3 of 1 KiB .. 1 MiB messages: GB/s against the read bound (half a copy), the
//     chunk-parallel blake3_fixed and the one-invocation-per-message blake3;
//   * ChaCha8 keystream: GB/s against the write bound (half a copy).
//
//   bench_hash [--repeat 10] [--scale 1.0] [--only sha256|chacha8|blake3]
//   (--scale multiplies the batch sizes; --only runs one table and the bounds it needs)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/hash/hash.hpp>

#include "stdlib_bench.hpp"

using namespace sprig;
using stdlib_bench::copy_ms;
using stdlib_bench::time_ms;

namespace {

// Each invocation runs `arx_iterations` loop iterations over four independent ChaCha
// columns (so a CPU's pipelines have independent work, as a GPU's warps do), each column
// twice a half quarter round: 6 integer operations (2 adds, 2 xors, 2 rotates), the mix
// SHA-256 and BLAKE3 are made of; plus the loop's own increment and compare. The result
// is stored so nothing is dead.
constexpr std::uint32_t arx_iterations = 256;
constexpr double arx_ops_per_invocation = arx_iterations * (4 * 2 * 6.0 + 2);

const auto& arx_kernel() {
  auto trace = [] {
    return kernel("arx_loop", [](WriteBuffer<std::uint32_t> out, UInt seed) {
      UInt i = global_id().x();
      std::vector<Var<std::uint32_t>> a, b, c, d;
      for (std::uint32_t j = 0; j < 4; ++j) {
        a.emplace_back(i + j), b.emplace_back(i ^ (seed + j)), c.emplace_back(seed * (j + 3u)), d.emplace_back(seed + i * j);
      }
      for_(0u, UInt(arx_iterations), [&](UInt) {
        for (int twice = 0; twice < 2; ++twice)  // unrolled at trace time
          for (std::size_t j = 0; j < 4; ++j) {
            a[j] = a[j] + b[j];
            d[j] = rotate_left(d[j] ^ a[j], 16u);
            c[j] = c[j] + d[j];
            b[j] = rotate_left(b[j] ^ c[j], 12u);
          }
      });
      UInt all = a[0] ^ b[0] ^ c[0] ^ d[0];
      for (std::size_t j = 1; j < 4; ++j) all = all ^ a[j] ^ b[j] ^ c[j] ^ d[j];
      out[i] = all;
    }, workgroup(256));
  };
  return sprig::detail::cached_kernel<decltype(trace())>("bench/arx_loop", trace);
}

// Integer operations of SHA-256, counted from FIPS 180-4: a round is 22 (Σ0 and Σ1 5 each,
// Ch 3, Maj 4, 5 additions for T1 and T2), a schedule word 13 (σ0 and σ1 5 each, 3
// additions), the feed-forward 8. A block whose words vary needs 64 rounds and 48 schedule
// words; a constant padding block's schedule folds at compile time and only its 64 rounds
// run. Blocks that mix varying and constant words (the mining search's) are counted whole.
constexpr double sha256_block_ops = 64 * 22 + 48 * 13 + 8;
constexpr double sha256_padding_block_ops = 64 * 22 + 8;

double arx_ops_per_ms(Device& dev, int repeat) {
  constexpr std::size_t invocations = std::size_t(1) << 20;
  auto out = dev.alloc<std::uint32_t>(invocations);
  double ms = time_ms(dev, repeat, [&](Sequence& s) { s.run(arx_kernel(), grid(invocations), out, 7u); });
  return invocations * arx_ops_per_invocation / ms;
}

struct Sha256Row {
  const char* what;
  double compressions, ops;
  double ms;
  std::size_t hashes;
};

// hashcat's published 16.2 G hashes/s on an H100 (-m 1400, single-block candidates) is 16.2 G
// compressions/s; the last column compares compressions per second.
void print_sha256_row(const Sha256Row& row, double arx_per_ms) {
  double per_s = row.hashes / row.ms * 1e3, bound_per_s = arx_per_ms * 1e3 / row.ops;
  std::printf("| %s | %.0f | %.3f | %.3f | %.0f | %.3f | %.3f | %.3f |\n", row.what, row.compressions, row.ms,
              per_s / 1e9, row.ops, bound_per_s / 1e9, per_s / bound_per_s, per_s * row.compressions / 16.2e9);
  std::fflush(stdout);
}

void bench_sha256(Device& dev, int repeat, double scale, double arx_per_ms) {
  const std::size_t count = std::max<std::size_t>(1024, std::size_t(scale * (1 << 24)));
  auto messages = dev.alloc<std::uint32_t>(count * 16), digests = dev.alloc<std::uint32_t>(count * 8);
  std::printf("\nSHA-256, %zu messages (the search: %zu nonces)\n\n", count, count * 16);
  std::printf("| messages | compressions per hash | sprig ms | G hashes/s | ops/hash | integer bound G hashes/s | "
              "fraction of bound | compressions/s against hashcat H100 16.2 G/s |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  // 7 bytes is hashcat's benchmark length (its mask ?b?b?b?b?b?b?b): words 2..14 of the block
  // are zero and fold away, so the counted operations overstate the work.
  for (std::uint32_t bytes : {7u, 32u, 55u, 64u}) {
    double ms = time_ms(dev, repeat, [&](Sequence& s) { hash::sha256_fixed(s, messages, bytes, count, digests); });
    const bool one_block = bytes <= 55;
    std::string what = "SHA-256 of " + std::to_string(bytes) + " bytes";
    print_sha256_row({what.c_str(), one_block ? 1.0 : 2.0,
                      one_block ? sha256_block_ops : sha256_block_ops + sha256_padding_block_ops, ms, count},
                     arx_per_ms);
  }
  // hashcat's own work: 7-byte candidates searched for a digest (none matches here), the
  // candidate's word the only one that changes; as many candidates as the search below.
  {
    const std::vector<std::uint8_t> message{'h', 'a', 's', 'h', 'c', 'a', 't'};
    auto block = dev.upload(hash::sha256_search_block(message));
    auto digest = dev.upload(std::vector<std::uint32_t>(8, 0));
    auto found = dev.upload(std::vector<std::uint32_t>{0});
    auto kept = dev.alloc<std::uint32_t>(64);
    const std::size_t candidates = count * 16;
    double search_ms = time_ms(dev, repeat, [&](Sequence& s) {
      hash::sha256_search(s, block, 7, 0, candidates, digest, found, kept);
    });
    print_sha256_row({"SHA-256 search, 7-byte candidates (hashcat's benchmark length)", 1.0, sha256_block_ops,
                      search_ms, candidates},
                     arx_per_ms);
  }
  // Bitcoin's double SHA-256 of 80-byte headers, the midstate precomputed: a miner's work.
  // A zero target: no nonce wins, and every hash is still compared with it.
  const std::vector<std::uint8_t> header(80, 0x5a);
  auto header_words = dev.upload(hash::pack_bytes(header));
  auto target = dev.upload(std::vector<std::uint32_t>(8, 0));
  auto counter = dev.upload(std::vector<std::uint32_t>{0});
  auto winners = dev.alloc<std::uint32_t>(64);
  const std::size_t nonces = count * 16;
  double ms = time_ms(dev, repeat, [&](Sequence& s) {
    hash::sha256d_search(s, header_words, 0, nonces, target, counter, winners);
  });
  print_sha256_row({"double SHA-256 search, 80-byte headers, midstate", 2.0, 2 * sha256_block_ops, ms, nonces},
                   arx_per_ms);
}

// `profiling` (SPRIG_PROFILE=1) adds each size's GPU time by launch.
void bench_blake3(Device& dev, int repeat, double scale, bool profiling) {
  const std::size_t total = std::max<std::size_t>(1 << 20, std::size_t(scale * (std::size_t(1) << 28)));
  auto data = dev.alloc<std::uint32_t>(total / 4);
  {
    auto s = dev.sequence();
    s.fill(data, 0x5a5a5a5au);
    s.run_and_wait();
  }
  double read_bound_ms = copy_ms(dev, total, repeat) / 2;
  std::printf("\nBLAKE3 over %zu MiB in messages of one size\n\n", total >> 20);
  std::printf("| message bytes | messages | blake3_fixed ms | GB/s | fraction of read bound | blake3 (spans, one invocation per message) ms | GB/s |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (std::size_t bytes : {std::size_t(1) << 10, std::size_t(1) << 14, std::size_t(1) << 16, std::size_t(1) << 20}) {
    std::size_t count = total / bytes;
    if (count == 0) continue;
    std::vector<hash::ByteSpan> spans(count);
    for (std::size_t i = 0; i < count; ++i) spans[i] = {std::uint32_t(i * bytes), std::uint32_t(bytes)};
    auto span_buffer = dev.upload(spans);
    auto out = dev.alloc<std::uint32_t>(count * 8);
    double ms = time_ms(dev, repeat, [&](Sequence& s) {
      hash::blake3_fixed(dev, s, data, std::uint32_t(bytes), count, out);
    });
    auto fixed_digests = dev.download(out);
    double spans_ms = time_ms(dev, repeat, [&](Sequence& s) { hash::blake3(dev, s, data, span_buffer, out); });
    if (dev.download(out) != fixed_digests) std::printf("WRONG RESULT: the two BLAKE3 paths differ\n");
    std::printf("| %zu | %zu | %.3f | %.1f | %.3f | %.3f | %.1f |\n", bytes, count, ms, double(total) / ms / 1e6,
                read_bound_ms / ms, spans_ms, double(total) / spans_ms / 1e6);
    if (profiling) {
      // One more call, its launches timed on the GPU: where the time of a size goes.
      auto s = dev.sequence();
      hash::blake3_fixed(dev, s, data, std::uint32_t(bytes), count, out);
      s.run_and_wait();
      std::printf("|   GPU time by launch:");
      for (const LaunchTiming& t : s.timings()) std::printf(" %s %.4f ms;", t.kernel.c_str(), t.gpu_ms);
      std::printf(" |\n");
    }
    std::fflush(stdout);
  }
}

void bench_chacha8(Device& dev, int repeat, double scale) {
  const std::size_t bytes = std::max<std::size_t>(1 << 20, std::size_t(scale * (std::size_t(1) << 30)) / 64 * 64);
  auto out = dev.alloc<std::uint32_t>(bytes / 4);
  hash::ChachaStream stream{{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11}, hash::ChachaLayout::Ietf, 8};
  double ms = time_ms(dev, repeat, [&](Sequence& s) { hash::chacha_keystream(s, stream, 0, bytes, out); });
  double write_bound_ms = copy_ms(dev, bytes, repeat) / 2;
  std::printf("\nChaCha8 keystream, %zu MiB (IETF layout, from block 0)\n\n", bytes >> 20);
  std::printf("| sprig ms | GB/s | write bound GB/s | fraction of write bound |\n|---|---|---|---|\n");
  std::printf("| %.3f | %.1f | %.1f | %.3f |\n", ms, double(bytes) / ms / 1e6, double(bytes) / write_bound_ms / 1e6,
              write_bound_ms / ms);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  const bool cpu = gpu.info().type == "cpu";
  int repeat = cpu ? 2 : 10;
  double scale = cpu ? 1.0 / 256 : 1.0;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--scale")) scale = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
  }
  if (!only.empty() && only != "sha256" && only != "chacha8" && only != "blake3") {
    std::fprintf(stderr, "bench_hash: --only takes sha256, chacha8 or blake3, not '%s'\n", only.c_str());
    return 2;
  }
  auto runs = [&](const char* table) { return only.empty() || only == table; };
  std::printf("Hashing on %s (%s)\n", gpu.name().c_str(), gpu.info().backend.c_str());
  if (runs("sha256")) {
    double arx = arx_ops_per_ms(gpu, repeat);
    std::printf("\nARX loop: %.2f T integer ops/s\n", arx / 1e9);
    bench_sha256(gpu, repeat, scale, arx);
  }
  if (runs("chacha8")) bench_chacha8(gpu, repeat, scale);
  const char* profile = std::getenv("SPRIG_PROFILE");
  if (runs("blake3")) bench_blake3(gpu, repeat, scale, profile && std::string(profile) == "1");
  stdlib_bench::print_pipeline_statistics(gpu);
}
