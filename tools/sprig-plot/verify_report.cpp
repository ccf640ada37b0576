#include "verify_report.hpp"

#include <cstdio>

#include <sprig/stdlib/hash/hex.hpp>
#include <sprig/stdlib/pos/verify.hpp>

namespace sprig_plot {

namespace pos = sprig::pos;

std::vector<std::uint32_t> proof_challenges(pos::Mode mode, int k, const std::vector<std::uint32_t>& s_buckets) {
  std::vector<std::uint32_t> challenges(s_buckets);
  if (mode == pos::Mode::Subspace)
    for (auto& c : challenges) c = pos::subspace_challenge(k, c);
  return challenges;
}

void VerifyReport::malformed(std::uint32_t r, const pos::PlotFileRecord& record) {
  ++malformed_;
  std::fprintf(stderr, "record %u (seed %s): %s\n", r, sprig::hash::to_hex(record.seed).c_str(),
               record.inconsistency.c_str());
}

void VerifyReport::verified(std::uint32_t r, const pos::Seed& seed, const std::vector<std::uint32_t>& s_buckets,
                            const std::vector<std::uint8_t>& ok) {
  for (std::size_t i = 0; i < ok.size(); ++i) {
    if (ok[i]) continue;
    ++invalid_;
    if (invalid_ <= 10) {
      std::fprintf(stderr, "record %u (seed %s): proof for s-bucket %u is invalid\n", r,
                   sprig::hash::to_hex(seed).c_str(), s_buckets[i]);
    }
  }
  proofs_ += s_buckets.size();
}

int VerifyReport::finish(const std::string& input, const pos::PlotFileHeader& header) const {
  std::printf("%s: K = %d, %s rules, %u records, %llu proofs, %llu valid, %llu invalid, %llu malformed records\n",
              input.c_str(), header.k, pos::mode_name(header.mode), header.records, (unsigned long long)proofs_,
              (unsigned long long)(proofs_ - invalid_), (unsigned long long)invalid_,
              (unsigned long long)malformed_);
  return invalid_ == 0 && malformed_ == 0 ? 0 : 1;
}

}  // namespace sprig_plot
