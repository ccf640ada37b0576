// What `sprig-plot verify` prints, whether one process verifies or an mpirun job's ranks do:
// each malformed record and the first ten invalid proofs as they are found, then the summary
// line, and the exit status (0: every proof valid and every record well-formed, 1: not).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sprig/stdlib/pos/plot_file_reader.hpp>

namespace sprig_plot {

// The challenge each proof answers: its s-bucket (Abundance), or the first K bits of y that
// the s-bucket as a challenge index selects (Subspace).
std::vector<std::uint32_t> proof_challenges(sprig::pos::Mode mode, int k, const std::vector<std::uint32_t>& s_buckets);

class VerifyReport {
 public:
  // A record whose bitmap and s-buckets disagree (record.inconsistency is not empty).
  void malformed(std::uint32_t r, const sprig::pos::PlotFileRecord& record);
  // Record r's proofs were verified: ok[i] for s_buckets[i].
  void verified(std::uint32_t r, const sprig::pos::Seed& seed, const std::vector<std::uint32_t>& s_buckets,
                const std::vector<std::uint8_t>& ok);
  // Prints the summary line; returns the exit status.
  int finish(const std::string& input, const sprig::pos::PlotFileHeader& header) const;

 private:
  std::uint64_t proofs_ = 0, invalid_ = 0, malformed_ = 0;
};

}  // namespace sprig_plot
