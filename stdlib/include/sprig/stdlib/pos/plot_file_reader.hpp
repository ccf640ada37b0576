// Reads a plot file (plot_file_format.hpp) record by record, checking every field it can
// without a device, so a damaged file is a PlotFileError that says what is wrong and where,
// never a crash, a hang or a huge allocation. Proofs themselves are checked by pos::Verifier.
//
//   std::ifstream in(path, std::ios::binary);
//   pos::PlotFileReader reader(in, path);
//   while (std::optional<pos::PlotFileRecord> record = reader.next()) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "sprig/stdlib/pos/plot_file_format.hpp"

namespace sprig::pos {

struct PlotFileRecord {
  Seed seed{};
  std::vector<std::uint8_t> found_proofs;  // plot_file_bitmap_bytes
  std::vector<std::uint32_t> s_buckets;    // as stored: the reader does not sort them
  std::vector<std::uint8_t> proofs;        // proof_bytes(k) per s-bucket
  // Empty, or why the bitmap and the s-bucket list disagree (a malformed record, which a
  // verifier reports but can read past).
  std::string inconsistency;
};

class PlotFileReader {
 public:
  // Reads and checks the header: magic, version, K, rules, record count, reserved bytes.
  // `name` names the file in errors. Throws PlotFileError.
  PlotFileReader(std::istream& in, std::string name);

  const PlotFileHeader& header() const { return header_; }
  // The next record, or nullopt after the last one, once the reader has checked that
  // nothing follows it. Throws PlotFileError for a truncated or impossible record (a proof
  // count over 2^15 is refused before anything is allocated for it).
  std::optional<PlotFileRecord> next();

 private:
  [[noreturn]] void fail(const std::string& what) const;
  void read(void* data, std::size_t bytes, const std::string& what);
  std::uint32_t read_u32(const std::string& what);
  std::string record_field(const char* field) const;

  std::istream& in_;
  std::string name_;
  PlotFileHeader header_;
  std::uint32_t next_record_ = 0;
  std::uint64_t offset_ = 0;  // bytes read so far, for errors
};

}  // namespace sprig::pos
