// Merkle trees of 2^k leaves (hash::merkle_tree) under each node hasher and schedule, and
// the Goldilocks field-multiply throughput measured in the same run: a Rescue Prime tree's
// bound is its field multiplications (6384 per merge: 7 rounds of 12 S-boxes x^7 in 4
// multiplications and 12 inverse S-boxes in 72; the MDS rows are sums of small multiples,
// not counted) at that rate. Peer: 793 ms published for a SYCL Rescue Prime tree of 2^24
// leaves on a V100.
//
//   bench_merkle [--log-leaves 24] [--repeat 3]
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/hash/hash.hpp>

#include "stdlib_bench.hpp"

using namespace sprig;
using stdlib_bench::time_ms;

namespace {

constexpr double rescue_multiplies_per_merge = 7.0 * 12 * (4 + 72);
constexpr double sycl_v100_ms = 793.0;

// Each invocation runs 4 independent chains of `iterations` Goldilocks multiplications.
constexpr std::uint32_t multiply_iterations = 256;

const auto& multiply_kernel() {
  auto trace = [] {
    return kernel("goldilocks_mul_loop", [](WriteBuffer<std::uint64_t> out, ULong seed) {
      using F = hash::Goldilocks64;
      ULong i = cast<std::uint64_t>(global_id().x());
      std::vector<Var<std::uint64_t>> chains;
      for (std::uint64_t c = 0; c < 4; ++c) chains.emplace_back(F::canonical(i * 0x9e3779b97f4a7c15ull + seed + c));
      ULong factor = F::canonical(seed * 0x2545f4914f6cdd1dull + i);
      for_(0u, multiply_iterations, [&](UInt) {
        for (auto& c : chains) c = F::mul(c.load(), factor);
      });
      out[global_id().x()] = chains[0] ^ chains[1] ^ chains[2] ^ chains[3];
    }, workgroup(256));
  };
  return sprig::detail::cached_kernel<decltype(trace())>("bench/goldilocks_mul_loop", trace);
}

double multiplies_per_ms(Device& dev, int repeat) {
  constexpr std::size_t invocations = std::size_t(1) << 20;
  auto out = dev.alloc<std::uint64_t>(invocations);
  double ms = time_ms(dev, repeat, [&](Sequence& s) { s.run(multiply_kernel(), grid(invocations), out, 12345ull); });
  return invocations * 4.0 * multiply_iterations / ms;
}

template <class H>
double tree_ms(Device& dev, const DeviceBuffer<std::uint32_t>& leaves, std::size_t n, const DeviceBuffer<std::uint32_t>& nodes,
               hash::MerkleSchedule schedule, int repeat) {
  return time_ms(dev, repeat, [&](Sequence& s) { hash::merkle_tree<H>(s, leaves, n, nodes, schedule); });
}

}  // namespace

int main(int argc, char** argv) {
  vk::Device gpu = vk::Device::best();
  const bool cpu = gpu.info().type == "cpu";
  int log_leaves = cpu ? 12 : 24, repeat = cpu ? 1 : 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--log-leaves")) log_leaves = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--repeat")) repeat = std::atoi(argv[i + 1]);
  }
  const std::size_t n = std::size_t(1) << log_leaves;
  std::printf("Merkle trees of 2^%d leaves on %s (%s)\n", log_leaves, gpu.name().c_str(), gpu.info().backend.c_str());
  const double per_ms = multiplies_per_ms(gpu, repeat);
  std::printf("\nGoldilocks multiplications: %.3f T/s\n\n", per_ms / 1e9);

  // Leaves: 8 words each; Rescue reduces any word pair, so random words are valid elements.
  std::vector<std::uint32_t> host(n * 8);
  std::uint32_t x = 2463534242u;
  for (auto& w : host) x ^= x << 13, x ^= x >> 17, x ^= x << 5, w = x;
  auto leaves = gpu.upload(host);
  auto nodes = gpu.alloc<std::uint32_t>(2 * n * 8);
  const double bound_ms = double(n - 1) * rescue_multiplies_per_merge / per_ms;

  std::printf("| node hash | schedule | ms | multiply bound ms | fraction of bound | SYCL V100 793 ms / sprig |\n");
  std::printf("|---|---|---|---|---|---|\n");
  auto row = [&](const char* hash, hash::MerkleSchedule schedule, double ms, bool rescue) {
    const char* name = schedule == hash::MerkleSchedule::PerLevel ? "one launch per level" : "subtrees in shared memory";
    if (rescue)
      std::printf("| %s | %s | %.2f | %.2f | %.3f | %.2f |\n", hash, name, ms, bound_ms, bound_ms / ms,
                  log_leaves == 24 ? sycl_v100_ms / ms : 0.0);
    else
      std::printf("| %s | %s | %.2f | - | - | - |\n", hash, name, ms);
    std::fflush(stdout);
  };
  std::vector<std::uint32_t> reference_root;
  auto check_root = [&](const char* what) {  // every schedule of a hasher gives the same root
    std::vector<std::uint32_t> all = gpu.download(nodes);
    std::vector<std::uint32_t> root(all.begin() + 8, all.begin() + 16);
    if (reference_root.empty()) reference_root = root;
    else if (root != reference_root) std::printf("WRONG RESULT: %s\n", what);
  };
  for (auto schedule : {hash::MerkleSchedule::PerLevel, hash::MerkleSchedule::Subtrees}) {
    if (gpu.info().supported.int64) {
      row("Rescue Prime (uint64)",
          schedule, tree_ms<hash::RescueMerkleNode<hash::Goldilocks64>>(gpu, leaves, n, nodes, schedule, repeat), true);
      check_root("Rescue uint64");
    }
    row("Rescue Prime (32-bit limbs)",
        schedule, tree_ms<hash::RescueMerkleNode<hash::Goldilocks32>>(gpu, leaves, n, nodes, schedule, repeat), true);
    check_root("Rescue limbs");
  }
  for (auto schedule : {hash::MerkleSchedule::PerLevel, hash::MerkleSchedule::Subtrees}) {
    reference_root.clear();
    row("SHA-256", schedule, tree_ms<hash::Sha256MerkleNode>(gpu, leaves, n, nodes, schedule, repeat), false);
  }
  for (auto schedule : {hash::MerkleSchedule::PerLevel, hash::MerkleSchedule::Subtrees})
    row("BLAKE3", schedule, tree_ms<hash::Blake3MerkleNode>(gpu, leaves, n, nodes, schedule, repeat), false);
}
