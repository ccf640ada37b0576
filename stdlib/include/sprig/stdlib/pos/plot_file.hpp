// The plot file `sprig-plot` writes and verifies (docs/pos.md, "The plot file"): reading
// it checks every field it can without a device, so a damaged file is a PlotFileError
// that says what is wrong and where, never a crash, a hang or a huge allocation. Proofs
// themselves are checked by pos::Verifier.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/plotter.hpp"

namespace sprig::pos {

inline constexpr std::uint32_t plot_file_version = 1;
inline constexpr std::size_t plot_file_header_bytes = 32;
inline constexpr std::size_t plot_file_bitmap_bytes = num_s_buckets / 8;

class PlotFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PlotFileHeader {
  int k = 0;
  Mode mode = Mode::Abundance;
  std::uint32_t records = 0;
};

struct PlotFileRecord {
  Seed seed{};
  std::vector<std::uint8_t> found_proofs;  // plot_file_bitmap_bytes
  std::vector<std::uint32_t> s_buckets;    // as stored: the reader does not sort them
  std::vector<std::uint8_t> proofs;        // proof_bytes(k) per s-bucket
  // Empty, or why the bitmap and the s-bucket list disagree (a malformed record, which a
  // verifier reports but can read past).
  std::string inconsistency;
};

void write_plot_header(std::ostream& out, const PlotFileHeader& header);
void write_plot_record(std::ostream& out, const Seed& seed, const PlotResult& result);

// Reads a plot file record by record: a file holds up to 2^16 records of up to 5 MiB each.
class PlotFileReader {
 public:
  // Reads and checks the header; `name` names the file in errors. Throws PlotFileError.
  PlotFileReader(std::istream& in, std::string name);

  const PlotFileHeader& header() const { return header_; }
  // The next record, or nullopt after the last one, once the reader has checked that
  // nothing follows it. Throws PlotFileError for a truncated or impossible record.
  std::optional<PlotFileRecord> next();

 private:
  [[noreturn]] void fail(const std::string& what) const;
  void read(void* data, std::size_t bytes, const char* what);
  std::uint32_t read_u32(const char* what);

  std::istream& in_;
  std::string name_;
  PlotFileHeader header_;
  std::uint32_t next_record_ = 0;
  std::uint64_t offset_ = 0;  // bytes read so far, for errors
};

}  // namespace sprig::pos
