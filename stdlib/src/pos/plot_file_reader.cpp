#include "sprig/stdlib/pos/plot_file_reader.hpp"

#include <algorithm>

#include "plot_file_layout.hpp"

namespace sprig::pos {

using namespace plot_file_layout;

PlotFileReader::PlotFileReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
  HeaderBytes bytes{};
  in_.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
  const std::size_t present = std::size_t(in_.gcount());
  // A short file of other bytes is foreign rather than truncated.
  if (!std::equal(magic.begin(), magic.begin() + std::ptrdiff_t(std::min(present, magic.size())), bytes.begin()))
    fail("is not a sprig plot file (bad magic)");
  if (present < bytes.size()) {
    fail("is truncated: its header needs " + std::to_string(bytes.size()) + " bytes, " + std::to_string(present) +
         " are present");
  }
  offset_ = bytes.size();
  const std::uint32_t version = load_u32(&bytes[version_offset]);
  if (version != plot_file_version) {
    fail("has format version " + std::to_string(version) + "; this program reads version " +
         std::to_string(plot_file_version));
  }
  const std::uint32_t k = load_u32(&bytes[k_offset]);
  const std::uint32_t rules = load_u32(&bytes[rules_offset]);
  header_.records = load_u32(&bytes[records_offset]);
  if (std::string problem = field_problem(k, rules, header_.records); !problem.empty())
    fail("has a bad header: " + problem);
  header_.k = int(k);
  header_.mode = rules == 1 ? Mode::Subspace : Mode::Abundance;
  if (std::any_of(bytes.begin() + reserved_offset, bytes.end(), [](std::uint8_t b) { return b != 0; })) {
    fail("has reserved header bytes " + std::to_string(reserved_offset) + ".." + std::to_string(bytes.size() - 1) +
         " that are not zero (written by a newer or a broken program)");
  }
}

std::optional<PlotFileRecord> PlotFileReader::next() {
  if (next_record_ == header_.records) {
    if (in_.peek() != std::istream::traits_type::eof()) {
      in_.clear();
      in_.seekg(0, std::ios::end);
      std::string extra = in_ ? std::to_string(std::uint64_t(in_.tellg()) - offset_) + " bytes" : "bytes";
      fail("has " + extra + " after its last record (its header counts " + std::to_string(header_.records) +
           " records), from offset " + std::to_string(offset_));
    }
    return std::nullopt;
  }
  PlotFileRecord record;
  read(record.seed.data(), record.seed.size(), record_field("seed"));
  const std::uint32_t count = read_u32(record_field("proof count"));
  if (count > proofs_per_record) {
    fail("record " + std::to_string(next_record_) + " claims " + std::to_string(count) + " proofs (at most " +
         std::to_string(proofs_per_record) + ")");
  }
  record.found_proofs.resize(plot_file_bitmap_bytes);
  read(record.found_proofs.data(), record.found_proofs.size(), record_field("found-proofs bitmap"));
  std::vector<std::uint8_t> s_bucket_bytes(std::size_t(count) * 4);
  read(s_bucket_bytes.data(), s_bucket_bytes.size(), record_field("s-buckets"));
  record.s_buckets.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) record.s_buckets[i] = load_u32(&s_bucket_bytes[std::size_t(i) * 4]);
  record.proofs.resize(std::size_t(count) * proof_bytes(header_.k));
  read(record.proofs.data(), record.proofs.size(), record_field("proofs"));
  record.inconsistency = plot_file_record_inconsistency(record.found_proofs, record.s_buckets);
  ++next_record_;
  return record;
}

void PlotFileReader::fail(const std::string& what) const { throw PlotFileError(name_ + " " + what); }

std::string PlotFileReader::record_field(const char* field) const {
  return "record " + std::to_string(next_record_) + "'s " + field;
}

void PlotFileReader::read(void* data, std::size_t bytes, const std::string& what) {
  in_.read(static_cast<char*>(data), std::streamsize(bytes));
  if (std::size_t(in_.gcount()) != bytes) {
    fail("is truncated in " + what + ": " + std::to_string(bytes) + " bytes are needed at offset " +
         std::to_string(offset_) + ", " + std::to_string(in_.gcount()) + " are left");
  }
  offset_ += bytes;
}

std::uint32_t PlotFileReader::read_u32(const std::string& what) {
  std::uint8_t b[4];
  read(b, 4, what);
  return load_u32(b);
}

}  // namespace sprig::pos
