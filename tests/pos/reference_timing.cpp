// Times the CPU reference, single-threaded: table construction per table, proof creation and
// encoding, for K = 15..20 (or the K values given) in both modes. Not a test: a measurement
// for docs/pos.md. Times are the thread's CPU time, so that other load on a shared machine
// does not inflate them. Usage: pos_reference_timing [K ...]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "pos_reference.hpp"

namespace {

using Clock = double;  // thread CPU time in ms

Clock now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double ms_since(Clock start) { return now() - start; }

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> ks;
  for (int i = 1; i < argc; ++i) ks.push_back(std::atoi(argv[i]));
  if (ks.empty()) ks = {15, 16, 17, 18, 19, 20};
  pos_ref::Seed seed{35, 2,  52, 4,   51,  55,  23, 84, 91, 10, 111, 12, 13,  222, 151, 16,
                     228, 211, 254, 45, 92, 198, 204, 10, 9, 10, 11, 129, 139, 171, 15, 23};
  pos_ref::left_targets();  // built once per process, not per plot
  std::printf("mode       K    T1     T2     T3     T4     T5     T6     T7  tables  proofs  verify/proof (ms, us)\n");
  for (pos_ref::Mode mode : {pos_ref::Mode::Abundance, pos_ref::Mode::Subspace})
    for (int k : ks) {
      pos_ref::Tables tables;
      tables.k = k;
      tables.mode = mode;
      double t[8] = {};
      auto all = now();
      auto start = all;
      tables.table[1] = pos_ref::build_table1(seed, k, mode);
      t[1] = ms_since(start);
      for (int n = 2; n <= 7; ++n) {
        start = now();
        tables.table[n] = pos_ref::build_child_table(tables.table[n - 1], k, mode, n);
        t[n] = ms_since(start);
      }
      double total = ms_since(all);
      start = now();
      pos_ref::PosProofs proofs = pos_ref::create_proofs(tables);
      double proof_ms = ms_since(start);
      start = now();
      std::size_t n = std::min<std::size_t>(proofs.count(), 2000), ok = 0;
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t s = proofs.s_buckets[i];
        std::uint32_t challenge = mode == pos_ref::Mode::Abundance ? s : pos_ref::subspace_challenge_bits(k, s);
        ok += pos_ref::verify_proof(seed, k, challenge, proofs.proof(i));
      }
      double verify_us = n ? 1000 * ms_since(start) / double(n) : 0;
      std::printf("%-9s %2d %5.0f %6.0f %6.0f %6.0f %6.0f %6.0f %6.0f %7.0f %7.0f %8.1f%s\n", pos_ref::mode_name(mode), k,
                  t[1], t[2], t[3], t[4], t[5], t[6], t[7], total, proof_ms, verify_us, ok == n ? "" : "  (VERIFY FAILED)");
    }
}
