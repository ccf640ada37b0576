// scrypt N = 1024, r = 1, p = 1 (Litecoin's parameters, dkLen 32) in every scratch layout and
// work split, in hashes/s against the memory-bandwidth bound measured in the same run, and
// the mining search (scrypt_search) over a nonce range without winners.
//
//   bench_scrypt [--log-hashes 16,18] [--repeat 2] [--scratch-mib 0] [--best-only 1]
//
// Under SPRIG_PROFILE=1 it also prints each kernel's driver statistics (registers, ...).
//
// --scratch-mib: ScryptOptions::scratch_bytes values to compare (0: one scratch buffer of at
// most 3 GiB; less: smaller rounds; more: several scratch sets whose rounds run side by side).
// --best-only 1: only the contiguous cooperative variant (the default) at other scratch sizes.
//
// The bound: a hash must write V (N blocks of 128 r bytes) and read it back once, 2 * 128 N r
// bytes, plus the traffic of B and B' between the kernels: the expansion writes B (128 r), ROMix
// reads it and writes B' (2 * 128 r), the finish reads B' (128 r) — 4 * 128 r in all; the
// passwords, salts and outputs (under 100 bytes a hash) are left out. A device copy of 1 GiB
// (stdlib_bench.hpp's copy kernel, which reads and writes every byte once) gives the bytes/s,
// so bound = copy bytes/s / bytes per hash.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/hash/scrypt.hpp>

#include "stdlib_bench.hpp"

using namespace sprig;

namespace {

constexpr hash::ScryptParams litecoin{1024, 1, 1};

double bytes_per_hash(const hash::ScryptParams& params) {
  double block = 128.0 * params.r * params.p;
  return 2.0 * block * params.N + 4.0 * block;
}

// n distinct 80-byte passwords (their salts are themselves, as in Litecoin), packed.
struct Inputs {
  DeviceBuffer<std::uint32_t> data;
  DeviceBuffer<hash::ByteSpan> spans;
};

Inputs make_inputs(Device& device, std::size_t n) {
  std::vector<std::uint32_t> words(n * 20);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = std::uint32_t(i * 2654435761u);
  std::vector<hash::ByteSpan> spans(n);
  for (std::size_t i = 0; i < n; ++i) spans[i] = {std::uint32_t(i * 80), 80};
  return {device.upload(words), device.upload(spans)};
}

}  // namespace

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  Device& device = gpu;
  bool cpu = device.info().type == "cpu";
  std::vector<int> log_hashes = cpu ? std::vector<int>{8} : std::vector<int>{16, 18};
  int repeat = cpu ? 1 : 2;
  std::vector<int> scratch_mib{0};
  bool best_only = !cpu;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--log-hashes")) {
      log_hashes.clear();
      std::stringstream s(argv[i + 1]);
      for (std::string part; std::getline(s, part, ',');) log_hashes.push_back(std::atoi(part.c_str()));
    } else if (!std::strcmp(argv[i], "--scratch-mib")) {
      scratch_mib.clear();
      std::stringstream s(argv[i + 1]);
      for (std::string part; std::getline(s, part, ',');) scratch_mib.push_back(std::atoi(part.c_str()));
    } else if (!std::strcmp(argv[i], "--best-only")) {
      best_only = std::atoi(argv[i + 1]) != 0;
    } else if (!std::strcmp(argv[i], "--repeat")) {
      repeat = std::atoi(argv[i + 1]);
    }
  }

  std::size_t copy_bytes = cpu ? (std::size_t(64) << 20) : (std::size_t(1) << 30);
  double copy = stdlib_bench::copy_ms(device, copy_bytes, cpu ? 3 : 10);
  double copy_bytes_per_s = 2.0 * double(copy_bytes) / (copy / 1e3);
  double bound = copy_bytes_per_s / bytes_per_hash(litecoin);
  std::printf("scrypt N=1024 r=1 p=1 dkLen=32 on %s (%s)\n\n", device.name().c_str(), device.info().backend.c_str());
  std::printf("copy: %.1f GB/s (read + write); %.0f bytes per hash (2 x 128 N r for V, 4 x 128 r for B and B');"
              " bound %.3f M hashes/s\n\n",
              copy_bytes_per_s / 1e9, bytes_per_hash(litecoin), bound / 1e6);
  std::printf("| hashes | scratch | layout | split | ms | M hashes/s | fraction of bound |\n"
              "|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);

  for (int log_n : log_hashes) {
    std::size_t n = std::size_t(1) << log_n;
    Inputs inputs = make_inputs(device, n);
    auto out = device.alloc<std::uint32_t>(8 * n);
    std::vector<std::uint32_t> reference;
    for (int mib : scratch_mib)
      for (auto layout : {hash::ScryptLayout::Contiguous, hash::ScryptLayout::Interleaved})
        for (bool cooperative : {true, false}) {
          if (mib != scratch_mib.front() && best_only && !(cooperative && layout == hash::ScryptLayout::Contiguous))
            continue;
          hash::ScryptOptions options{layout, cooperative, std::uint64_t(mib) << 20};
          double ms = stdlib_bench::time_ms(device, repeat, [&](Sequence& s) {
            hash::scrypt(device, s, inputs.data, inputs.spans, inputs.spans, litecoin, 32, out, options);
          });
          // Every variant must give the first one's bits (the tests check them against OpenSSL).
          std::vector<std::uint32_t> got = device.download(out);
          if (reference.empty()) reference = got;
          const char* agree = got == reference ? "" : " (OUTPUT DIFFERS)";
          double rate = double(n) / (ms / 1e3);
          std::printf("| 2^%d | %s | %s | %s%s | %.2f | %.4g | %.3f |\n", log_n,
                      mib ? (std::to_string(mib) + " MiB").c_str() : "one buffer",
                      hash::scrypt_layout_name(layout),
                      cooperative ? "cooperative (4 per lane)" : "one per lane", agree, ms, rate / 1e6, rate / bound);
          std::fflush(stdout);
        }
  }

  // The search: a target of zero that no hash meets, so every nonce is hashed and none kept.
  std::printf("\n| search nonces | scratch | ms | M hashes/s | fraction of bound |\n|---|---|---|---|---|\n");
  std::vector<std::uint8_t> header(80);
  for (std::size_t i = 0; i < header.size(); ++i) header[i] = std::uint8_t(i * 37 + 1);
  std::array<std::uint32_t, 8> target{};
  std::uint64_t count = std::uint64_t(1) << log_hashes.back();
  for (int mib : scratch_mib) {
    hash::ScryptOptions options{hash::ScryptLayout::Contiguous, true, std::uint64_t(mib) << 20};
    hash::scrypt_search(device, header, 0, count, target, litecoin, 64, options);  // warm-up: pipelines
    double best = 1e30;
    for (int round = 0; round < 2; ++round) {
      auto start = std::chrono::steady_clock::now();
      hash::ScryptSearchResult found =
          hash::scrypt_search(device, header, std::uint32_t(count), count, target, litecoin, 64, options);
      best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      if (found.found != 0) std::printf("(unexpected: %llu winners)\n", static_cast<unsigned long long>(found.found));
    }
    double rate = double(count) / (best / 1e3);
    std::printf("| 2^%d | %s | %.2f | %.4g | %.3f |\n", log_hashes.back(),
                mib ? (std::to_string(mib) + " MiB").c_str() : "one buffer", best, rate / 1e6, rate / bound);
  }
  stdlib_bench::print_pipeline_statistics(gpu);  // under SPRIG_PROFILE=1
  return 0;
}
