#include "sprig/stdlib/pos/plot_file_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <utility>
#include <vector>

#include "plot_file_layout.hpp"

namespace sprig::pos {

using namespace plot_file_layout;

PlotFileWriter::PlotFileWriter(std::ostream& out, const PlotFileHeader& header, std::string name)
    : out_(out), header_(header), name_(std::move(name)) {
  if (std::string problem = plot_file_header_problem(header); !problem.empty()) fail("bad header: " + problem);
  const HeaderBytes bytes = encode_header(header);
  errno = 0;
  out_.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  check_stream("the header");
}

PlotFileWriter::PlotFileWriter(std::ostream& out, const PlotFileHeader& header, std::string name,
                               std::uint32_t records_written)
    : out_(out), header_(header), name_(std::move(name)), written_(records_written) {
  if (std::string problem = plot_file_header_problem(header); !problem.empty()) fail("bad header: " + problem);
  if (records_written > header.records) {
    fail("it cannot continue after record " + std::to_string(records_written) + ": the header counts " +
         std::to_string(header.records));
  }
}

PlotFileWriter PlotFileWriter::continuing(std::ostream& out, const PlotFileHeader& header, std::string name,
                                          std::uint32_t records_written) {
  return PlotFileWriter(out, header, std::move(name), records_written);
}

void PlotFileWriter::write(const Seed& seed, const PlotResult& result) {
  const std::string record = "record " + std::to_string(written_);
  if (written_ == header_.records)
    fail(record + " is one more than the header counts (" + std::to_string(header_.records) + ")");
  if (result.k != header_.k)
    fail(record + " was plotted with K = " + std::to_string(result.k) + "; the file's K is " +
         std::to_string(header_.k));
  if (result.found_proofs.size() != plot_file_bitmap_bytes) {
    fail(record + "'s found-proofs bitmap has " + std::to_string(result.found_proofs.size()) + " bytes, not " +
         std::to_string(plot_file_bitmap_bytes));
  }
  if (result.count() > proofs_per_record) {
    fail(record + " has " + std::to_string(result.count()) + " proofs (at most " + std::to_string(proofs_per_record) +
         ")");
  }
  const std::size_t proof_size = std::size_t(result.count()) * proof_bytes(header_.k);
  if (result.proofs.size() != proof_size) {
    fail(record + "'s proofs are " + std::to_string(result.proofs.size()) + " bytes; its " +
         std::to_string(result.count()) + " s-buckets need " + std::to_string(proof_size));
  }
  if (std::string problem = plot_file_record_inconsistency(result.found_proofs, result.s_buckets); !problem.empty())
    fail(record + " is inconsistent: " + problem);

  std::vector<std::uint8_t> fixed(32 + 4);
  std::copy(seed.begin(), seed.end(), fixed.begin());
  store_u32(&fixed[32], std::uint32_t(result.count()));
  std::vector<std::uint8_t> s_buckets(result.count() * 4);
  for (std::size_t i = 0; i < result.count(); ++i) store_u32(&s_buckets[i * 4], result.s_buckets[i]);
  errno = 0;
  for (const std::vector<std::uint8_t>* part : std::initializer_list<const std::vector<std::uint8_t>*>{
           &fixed, &result.found_proofs, &s_buckets, &result.proofs})
    out_.write(reinterpret_cast<const char*>(part->data()), std::streamsize(part->size()));
  check_stream(record.c_str());
  ++written_;
}

void PlotFileWriter::finish() {
  if (written_ != header_.records) {
    fail(std::to_string(written_) + " records were written; the header counts " + std::to_string(header_.records));
  }
  errno = 0;
  out_.flush();
  check_stream("the end of the file");
}

void PlotFileWriter::fail(const std::string& what) const { throw PlotFileError("cannot write " + name_ + ": " + what); }

void PlotFileWriter::check_stream(const char* what) const {
  if (out_) return;
  const int error = errno;  // cleared before writing: streams do not promise to set it
  fail(std::string("writing ") + what + " failed" + (error != 0 ? std::string(": ") + std::strerror(error) : ""));
}

}  // namespace sprig::pos
