// Verifies a plot file's proofs with the CPU reference (tests/pos/reference), which shares no
// code with the device plotter or its verifier: the independent check of a plot made where
// the reference's own plotting would take too long (K = 26..28 on a GPU; the reference's ys
// are 64-bit, so it verifies every K up to pos_ref::max_k = 28).
//
//   pos_reference_verify_plot FILE [PROOFS_PER_RECORD]
//
// Prints, per file, the proofs checked and how many the reference rejects; exits 1 if any.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <span>

#include <sprig/stdlib/pos/plot_file_reader.hpp>

#include "pos_reference.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [PROOFS_PER_RECORD]\n", argv[0]);
    return 2;
  }
  const std::size_t per_record = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : ~std::size_t(0);
  try {
    std::ifstream in(argv[1], std::ios::binary);
    sprig::pos::PlotFileReader reader(in, argv[1]);
    const int k = reader.header().k;
    pos_ref::check_k(k);  // before any record: a K the reference cannot verify, named
    if (reader.header().mode != sprig::pos::Mode::Abundance) {
      std::fprintf(stderr, "%s: only Abundance's challenges (the s-bucket) are checked here\n", argv[1]);
      return 2;
    }
    std::size_t checked = 0, rejected = 0, records = 0;
    while (std::optional<sprig::pos::PlotFileRecord> record = reader.next()) {
      pos_ref::Seed seed{};
      std::copy(record->seed.begin(), record->seed.end(), seed.begin());
      const std::size_t bytes = pos_ref::proof_bytes(k);  // the reference's own layout, 8·K bytes
      for (std::size_t i = 0; i < record->s_buckets.size() && i < per_record; ++i, ++checked) {
        std::span<const std::uint8_t> proof(record->proofs.data() + i * bytes, bytes);
        if (!pos_ref::verify_proof(seed, k, record->s_buckets[i], proof)) ++rejected;
      }
      ++records;
    }
    std::printf("%s: K = %d, %zu records, %zu proofs checked by the reference, %zu rejected\n", argv[1], k, records,
                checked, rejected);
    return rejected == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
