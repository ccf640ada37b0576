// Compile-time probe: a translation unit that calls the standard library's fixed-type entry
// points (hashing from the host, plotting and verifying a record, sorting and scanning), as
// a user of the library writes it. bench/compile_time/measure.sh times its compilation.
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/hash/hash.hpp>
#include <sprig/stdlib/pos/pos.hpp>
#include <sprig/stdlib/scan.hpp>
#include <sprig/stdlib/sort/radix_sort.hpp>

using namespace sprig;

int main() {
  sim::Device dev;
  std::printf("%s\n", hash::sha256(dev, "abc").hex().c_str());
  std::printf("%s\n", hash::blake3(dev, "abc").hex().c_str());
  std::printf("%zu\n", hash::scrypt(dev, "password", "NaCl", {16, 1, 1}, 32).size());
  std::printf("%llu\n", static_cast<unsigned long long>(hash::rescue_hash(dev, {1, 2, 3})[0]));

  std::vector<std::uint32_t> keys(1000);
  std::iota(keys.rbegin(), keys.rend(), 0u);
  auto buffer = dev.upload(keys);
  auto sequence = dev.sequence();
  radix_sort(dev, sequence, buffer);
  sequence.run_and_wait();
  auto scanned = dev.alloc<std::uint32_t>(keys.size());
  inclusive_scan(dev, buffer, scanned);
  std::printf("%u\n", dev.download(scanned).back());

  pos::Plotter plotter(dev, 12);
  pos::PlotResult proofs = plotter.plot(pos::Seed{});
  std::printf("%zu\n", proofs.proofs.size());
  return 0;
}
