// 64 F1 + 63 compute_fn evaluations per proof. Unlike the older Abundance snapshot (pos-spec §1.7), which
// skips a non-matching pair, this rejects it (as Subspace does since commit 45254f566), and it
// checks bucket adjacency as Chia's verifier does.
#include "verify.hpp"

#include <vector>

#include "compute_fn.hpp"
#include "f1.hpp"
#include "match_rule.hpp"
#include "proof_packing.hpp"

namespace pos_ref {

std::optional<std::uint64_t> proof_y7(const Seed& seed, int k, std::span<const std::uint8_t> proof) {
  ProofXs xs = unpack_proof(k, proof);
  std::vector<std::uint64_t> ys(64);
  std::vector<Metadata> metadata(64);
  for (std::size_t i = 0; i < 64; ++i) ys[i] = f1(seed, k, xs[i]), metadata[i] = xs[i];
  for (int t = 2; t <= 7; ++t) {
    std::size_t n = ys.size() / 2;
    for (std::size_t i = 0; i < n; ++i) {
      if (!matches(ys[2 * i], ys[2 * i + 1])) return std::nullopt;
      FnOutput out = compute_fn(k, t, ys[2 * i], metadata[2 * i], metadata[2 * i + 1]);
      ys[i] = out.y, metadata[i] = out.metadata;
    }
    ys.resize(n), metadata.resize(n);
  }
  return ys[0];
}

bool verify_proof(const Seed& seed, int k, std::uint32_t challenge, std::span<const std::uint8_t> proof) {
  auto y7 = proof_y7(seed, k, proof);
  return y7 && (*y7 >> param_ext) == challenge;
}

}  // namespace pos_ref
