#include "sprig/stdlib/pos/plot_file.hpp"

#include <algorithm>
#include <bit>

namespace sprig::pos {

namespace {

constexpr char kMagic[8] = {'S', 'P', 'R', 'I', 'G', 'P', 'O', 'S'};
constexpr std::size_t kReservedOffset = 24;

void put_u32(std::ostream& out, std::uint32_t v) {
  const char b[4] = {char(v & 0xff), char((v >> 8) & 0xff), char((v >> 16) & 0xff), char(v >> 24)};
  out.write(b, 4);
}

std::string bitmap_inconsistency(const std::vector<std::uint8_t>& bitmap, const std::vector<std::uint32_t>& s_buckets) {
  std::size_t set = 0;
  for (std::uint8_t byte : bitmap) set += std::size_t(std::popcount(byte));
  if (set != s_buckets.size()) {
    return "the found-proofs bitmap has " + std::to_string(set) + " bits set for " + std::to_string(s_buckets.size()) +
           " s-buckets";
  }
  for (std::size_t i = 0; i < s_buckets.size(); ++i) {
    std::uint32_t s = s_buckets[i];
    if (s >= num_s_buckets) return "s-bucket " + std::to_string(s) + " is out of range";
    if (i > 0 && s <= s_buckets[i - 1]) return "the s-buckets are not ascending at entry " + std::to_string(i);
    if (((bitmap[s / 8] >> (s % 8)) & 1) == 0) return "s-bucket " + std::to_string(s) + " is not set in the bitmap";
  }
  return "";
}

}  // namespace

void write_plot_header(std::ostream& out, const PlotFileHeader& header) {
  out.write(kMagic, 8);
  put_u32(out, plot_file_version);
  put_u32(out, std::uint32_t(header.k));
  put_u32(out, header.records);
  put_u32(out, header.mode == Mode::Subspace ? 1u : 0u);
  for (std::size_t i = kReservedOffset; i < plot_file_header_bytes; ++i) out.put(0);
}

void write_plot_record(std::ostream& out, const Seed& seed, const PlotResult& result) {
  out.write(reinterpret_cast<const char*>(seed.data()), std::streamsize(seed.size()));
  put_u32(out, std::uint32_t(result.count()));
  out.write(reinterpret_cast<const char*>(result.found_proofs.data()), std::streamsize(result.found_proofs.size()));
  for (std::uint32_t s : result.s_buckets) put_u32(out, s);
  out.write(reinterpret_cast<const char*>(result.proofs.data()), std::streamsize(result.proofs.size()));
}

PlotFileReader::PlotFileReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
  char magic[8];
  read(magic, sizeof magic, "the magic number");
  if (!std::equal(magic, magic + 8, kMagic)) fail("is not a sprig plot file (bad magic)");
  const std::uint32_t version = read_u32("the version");
  if (version != plot_file_version) {
    fail("has format version " + std::to_string(version) + "; this program reads version " +
         std::to_string(plot_file_version));
  }
  const std::uint32_t k = read_u32("K");
  if (k < std::uint32_t(min_k) || k > std::uint32_t(max_k)) {
    fail("has K = " + std::to_string(k) + ", out of range " + std::to_string(min_k) + ".." + std::to_string(max_k));
  }
  header_.k = int(k);
  header_.records = read_u32("the record count");
  const std::uint32_t mode = read_u32("the rules");
  if (mode > 1) fail("names plotting rules " + std::to_string(mode) + " (0 or 1 expected)");
  header_.mode = mode == 1 ? Mode::Subspace : Mode::Abundance;
  std::uint8_t reserved[plot_file_header_bytes - kReservedOffset];
  read(reserved, sizeof reserved, "the reserved header bytes");
  if (std::any_of(std::begin(reserved), std::end(reserved), [](std::uint8_t b) { return b != 0; })) {
    fail("has reserved header bytes 24..31 that are not zero (written by a newer or a broken program)");
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
  read(record.seed.data(), record.seed.size(), "a record's seed");
  const std::uint32_t count = read_u32("a record's proof count");
  if (count > proofs_per_record) {
    fail("record " + std::to_string(next_record_) + " claims " + std::to_string(count) + " proofs (at most " +
         std::to_string(proofs_per_record) + ")");
  }
  record.found_proofs.resize(plot_file_bitmap_bytes);
  read(record.found_proofs.data(), record.found_proofs.size(), "a record's found-proofs bitmap");
  record.s_buckets.resize(count);
  for (std::uint32_t& s : record.s_buckets) s = read_u32("a record's s-buckets");
  record.proofs.resize(std::size_t(count) * proof_bytes(header_.k));
  read(record.proofs.data(), record.proofs.size(), "a record's proofs");
  record.inconsistency = bitmap_inconsistency(record.found_proofs, record.s_buckets);
  ++next_record_;
  return record;
}

void PlotFileReader::fail(const std::string& what) const { throw PlotFileError(name_ + " " + what); }

void PlotFileReader::read(void* data, std::size_t bytes, const char* what) {
  in_.read(static_cast<char*>(data), std::streamsize(bytes));
  if (std::size_t(in_.gcount()) != bytes) {
    fail("is truncated: " + std::string(what) + " of record " + std::to_string(next_record_) + " needs " +
         std::to_string(bytes) + " bytes at offset " + std::to_string(offset_) + ", " + std::to_string(in_.gcount()) +
         " are left");
  }
  offset_ += bytes;
}

std::uint32_t PlotFileReader::read_u32(const char* what) {
  std::uint8_t b[4];
  read(b, 4, what);
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}

}  // namespace sprig::pos
