// The plot file (docs/pos.md, "The plot file"): what PlotFileWriter writes and
// PlotFileReader reads, and the rules both check. All integers are little-endian:
//
//   header (32 bytes): magic "SPRIGPOS", version, K, record count, rules (0 Abundance,
//                      1 Subspace), 8 zero bytes
//   each record:       seed (32), proof count n (4), found-proofs bitmap (8192),
//                      n ascending s-buckets (4 each), n proofs (8K bytes each)
//
// The byte layout itself lives in stdlib/src/pos/ only (plot_file_layout.hpp for the header,
// the reader and the writer for the order of a record's fields).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

inline constexpr std::uint32_t plot_file_version = 1;
inline constexpr std::size_t plot_file_header_bytes = 32;
inline constexpr std::size_t plot_file_bitmap_bytes = num_s_buckets / 8;
// Records are a sector's pieces, whose offsets are u16 (pos-spec §1.6).
inline constexpr std::uint32_t plot_file_max_records = 1u << 16;

// Anything wrong with a plot file being read or written: the message names the file, the
// field and, when reading, the offset.
class PlotFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PlotFileHeader {
  int k = 0;
  Mode mode = Mode::Abundance;
  std::uint32_t records = 0;
};

// The bytes of one record with `proofs` proofs.
constexpr std::uint64_t plot_file_record_bytes(int k, std::uint32_t proofs) {
  return 32 + 4 + plot_file_bitmap_bytes + std::uint64_t(proofs) * (4 + proof_bytes(k));
}

// Empty, or what makes a header impossible: K outside min_k..max_k, rules that are not a
// Mode, more than plot_file_max_records records.
std::string plot_file_header_problem(const PlotFileHeader& header);

// Empty, or why a record's bitmap and s-bucket list disagree: the bitmap must have exactly
// the listed s-buckets set, and they must be ascending and below num_s_buckets. Expects a
// bitmap of plot_file_bitmap_bytes.
std::string plot_file_record_inconsistency(const std::vector<std::uint8_t>& found_proofs,
                                           const std::vector<std::uint32_t>& s_buckets);

}  // namespace sprig::pos
