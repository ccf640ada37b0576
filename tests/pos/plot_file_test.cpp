// The plot file: what PlotFileWriter writes, PlotFileReader reads back field for field, and
// each check of either side refuses with a PlotFileError naming the file and the problem.
// Host code only: no device. (Randomly damaged files are tests/faults/plot_file_fuzz_test.cpp.)
#include "sprig/stdlib/pos/plot_file.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

// A consistent record of K = k with a proof for each listed s-bucket (ascending) and
// arbitrary proof bytes: the file format does not verify proofs.
pos::PlotResult make_result(int k, const std::vector<std::uint32_t>& s_buckets, std::uint64_t salt = 1) {
  std::mt19937_64 random(salt);
  pos::PlotResult result;
  result.k = k;
  result.found_proofs.assign(pos::plot_file_bitmap_bytes, 0);
  result.s_buckets = s_buckets;
  for (std::uint32_t s : s_buckets) result.found_proofs[s / 8] |= std::uint8_t(1u << (s % 8));
  result.proofs.resize(s_buckets.size() * pos::proof_bytes(k));
  for (std::uint8_t& b : result.proofs) b = std::uint8_t(random());
  return result;
}

std::vector<std::uint32_t> every(std::uint32_t first, std::uint32_t step, std::uint32_t end = pos::num_s_buckets) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t s = first; s < end; s += step) out.push_back(s);
  return out;
}

pos::Seed seed_of(std::uint32_t r) {
  pos::Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = std::uint8_t(r * 31 + i);
  return seed;
}

struct Plot {
  pos::PlotFileHeader header;
  std::vector<pos::PlotResult> records;
};

std::string write(const Plot& plot) {
  std::ostringstream out;
  pos::PlotFileWriter writer(out, plot.header, "test.plot");
  for (std::size_t r = 0; r < plot.records.size(); ++r) writer.write(seed_of(std::uint32_t(r)), plot.records[r]);
  writer.finish();
  return out.str();
}

// Two records of K = 15: 7 proofs, then 2.
Plot small_plot() {
  return {{15, pos::Mode::Abundance, 2}, {make_result(15, every(3, 9973), 1), make_result(15, {0, 65535}, 2)}};
}

std::vector<pos::PlotFileRecord> read_all(const std::string& bytes, pos::PlotFileHeader* header = nullptr) {
  std::istringstream in(bytes);
  pos::PlotFileReader reader(in, "test.plot");
  if (header) *header = reader.header();
  std::vector<pos::PlotFileRecord> records;
  while (std::optional<pos::PlotFileRecord> record = reader.next()) records.push_back(std::move(*record));
  return records;
}

// The error reading `bytes` to the end gives, or "" if it reads.
std::string read_error(const std::string& bytes) {
  try {
    read_all(bytes);
  } catch (const pos::PlotFileError& e) {
    return e.what();
  }
  return "";
}

void put_u32(std::string& bytes, std::size_t offset, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) bytes[offset + b] = char(v >> (8 * b));
}

// The documented layout: where record r's fields start in small_plot()'s bytes.
constexpr std::size_t kCountAt = 32, kBitmapAt = 36, kSBucketsAt = 36 + pos::plot_file_bitmap_bytes;
std::size_t record_start(const Plot& plot, std::size_t r) {
  std::size_t offset = pos::plot_file_header_bytes;
  for (std::size_t i = 0; i < r; ++i)
    offset += pos::plot_file_record_bytes(plot.header.k, std::uint32_t(plot.records[i].count()));
  return offset;
}

// A stream that takes `capacity` bytes and then fails, like a full disk.
class FullDisk : public std::streambuf {
 public:
  explicit FullDisk(std::size_t capacity) : capacity_(capacity) {}

 protected:
  int_type overflow(int_type c) override {
    if (used_ == capacity_) return traits_type::eof();
    ++used_;
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    const std::streamsize taken = std::min<std::streamsize>(n, std::streamsize(capacity_ - used_));
    used_ += std::size_t(taken);
    return taken;
  }

 private:
  std::size_t capacity_, used_ = 0;
};

}  // namespace

// ---- round trips ----------------------------------------------------------------------

TEST_CASE("plot file: the header's bytes are the documented layout") {
  std::ostringstream out;
  pos::PlotFileWriter writer(out, {21, pos::Mode::Subspace, 0x10000}, "test.plot");
  const std::string expected = std::string("SPRIGPOS") + std::string("\1\0\0\0", 4) + std::string("\25\0\0\0", 4) +
                               std::string("\0\0\1\0", 4) + std::string("\1\0\0\0", 4) + std::string(8, '\0');
  CHECK(out.str() == expected);
}

TEST_CASE("plot file: records written are read back field for field, under both rules and K = 15 and 25") {
  for (pos::Mode mode : {pos::Mode::Abundance, pos::Mode::Subspace}) {
    for (int k : {15, 25}) {
      INFO(pos::mode_name(mode) << ", K = " << k);
      const Plot plot{{k, mode, 3},
                      {make_result(k, every(5, 4099), 1), make_result(k, {}, 2), make_result(k, {65535}, 3)}};
      const std::string bytes = write(plot);
      std::uint64_t size = pos::plot_file_header_bytes;
      for (const auto& result : plot.records) size += pos::plot_file_record_bytes(k, std::uint32_t(result.count()));
      CHECK(bytes.size() == size);

      pos::PlotFileHeader header;
      const std::vector<pos::PlotFileRecord> records = read_all(bytes, &header);
      CHECK(header.k == k);
      CHECK(header.mode == mode);
      CHECK(header.records == 3);
      REQUIRE(records.size() == 3);
      for (std::size_t r = 0; r < 3; ++r) {
        CHECK(records[r].seed == seed_of(std::uint32_t(r)));
        CHECK(records[r].found_proofs == plot.records[r].found_proofs);
        CHECK(records[r].s_buckets == plot.records[r].s_buckets);
        CHECK(records[r].proofs == plot.records[r].proofs);
        CHECK(records[r].inconsistency.empty());
      }
    }
  }
}

TEST_CASE("plot file: a file of no records and a record of 2^15 proofs round-trip") {
  pos::PlotFileHeader header;
  CHECK(read_all(write({{15, pos::Mode::Abundance, 0}, {}}), &header).empty());
  CHECK(header.records == 0);

  const Plot full{{15, pos::Mode::Abundance, 1}, {make_result(15, every(1, 2))}};
  REQUIRE(full.records[0].count() == pos::proofs_per_record);
  const std::vector<pos::PlotFileRecord> records = read_all(write(full));
  REQUIRE(records.size() == 1);
  CHECK(records[0].s_buckets == full.records[0].s_buckets);
  CHECK(records[0].proofs == full.records[0].proofs);
}

TEST_CASE("plot file: the writer counts the records it wrote") {
  std::ostringstream out;
  pos::PlotFileWriter writer(out, {15, pos::Mode::Abundance, 2}, "test.plot");
  CHECK(writer.records_written() == 0);
  writer.write(seed_of(0), make_result(15, {1, 2}));
  CHECK(writer.records_written() == 1);
  CHECK(writer.header().records == 2);
}

// ---- the writer's checks --------------------------------------------------------------

TEST_CASE("plot file writer: refuses an impossible header") {
  std::ostringstream out;
  auto header_error = [&](pos::PlotFileHeader header) {
    try {
      pos::PlotFileWriter writer(out, header, "test.plot");
    } catch (const pos::PlotFileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(header_error({14, pos::Mode::Abundance, 1}),
             Contains("cannot write test.plot") && Contains("K = 14 is out of range 15..28"));
  CHECK_THAT(header_error({29, pos::Mode::Abundance, 1}), Contains("K = 29 is out of range"));
  CHECK_THAT(header_error({26, pos::Mode::Subspace, 1}), Contains("K = 26 is out of range for Subspace's rules 15..25"));
  CHECK_THAT(header_error({-1, pos::Mode::Abundance, 1}), Contains("K = -1 is out of range"));
  CHECK_THAT(header_error({15, pos::Mode(7), 1}), Contains("plotting rules 7 are not a pos::Mode"));
  CHECK_THAT(header_error({15, pos::Mode::Abundance, 65537}),
             Contains("a record count of 65537 is more than a plot file holds (65536)"));
  CHECK(header_error({15, pos::Mode::Abundance, 65536}).empty());
  CHECK(out.str().size() == pos::plot_file_header_bytes);  // only the good header was written
}

TEST_CASE("plot file writer: refuses a record that does not fit the header or the format") {
  std::ostringstream out;
  pos::PlotFileWriter writer(out, {15, pos::Mode::Abundance, 1}, "test.plot");
  auto record_error = [&](const pos::PlotResult& result) {
    try {
      writer.write(seed_of(0), result);
    } catch (const pos::PlotFileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(record_error(make_result(16, {1})), Contains("record 0 was plotted with K = 16; the file's K is 15"));

  pos::PlotResult short_bitmap = make_result(15, {1});
  short_bitmap.found_proofs.resize(100);
  CHECK_THAT(record_error(short_bitmap), Contains("found-proofs bitmap has 100 bytes, not 8192"));

  CHECK_THAT(record_error(make_result(15, every(0, 1, pos::proofs_per_record + 1))),
             Contains("record 0 has 32769 proofs (at most 32768)"));

  pos::PlotResult short_proofs = make_result(15, {1, 2});
  short_proofs.proofs.pop_back();
  CHECK_THAT(record_error(short_proofs), Contains("proofs are 239 bytes; its 2 s-buckets need 240"));

  pos::PlotResult extra_bit = make_result(15, {1, 2});
  extra_bit.found_proofs[0] |= 1;
  CHECK_THAT(record_error(extra_bit), Contains("inconsistent") && Contains("3 bits set for 2 s-buckets"));

  pos::PlotResult descending = make_result(15, {1, 2});
  std::swap(descending.s_buckets[0], descending.s_buckets[1]);
  CHECK_THAT(record_error(descending), Contains("not ascending at entry 1"));

  pos::PlotResult out_of_range = make_result(15, {1});
  out_of_range.s_buckets[0] = pos::num_s_buckets;
  CHECK_THAT(record_error(out_of_range), Contains("s-bucket 65536 is out of range"));

  pos::PlotResult unset = make_result(15, {1});
  unset.found_proofs[0] = 1;  // bit 0 instead of bit 1
  CHECK_THAT(record_error(unset), Contains("s-bucket 1 is not set in the bitmap"));

  CHECK(out.str().size() == pos::plot_file_header_bytes);  // no refused record left bytes behind
  CHECK(record_error(make_result(15, {1})).empty());
  CHECK_THAT(record_error(make_result(15, {1})), Contains("record 1 is one more than the header counts (1)"));
}

TEST_CASE("plot file writer: finish() refuses fewer records than the header counts") {
  std::ostringstream out;
  pos::PlotFileWriter writer(out, {15, pos::Mode::Abundance, 3}, "test.plot");
  writer.write(seed_of(0), make_result(15, {1}));
  CHECK_THROWS_WITH(writer.finish(), Contains("1 records were written; the header counts 3"));
}

TEST_CASE("plot file writer: a failing stream is an error naming what was being written") {
  SECTION("the header") {
    FullDisk disk(10);
    std::ostream out(&disk);
    CHECK_THROWS_WITH(pos::PlotFileWriter(out, {15, pos::Mode::Abundance, 1}, "full.plot"),
                      Contains("cannot write full.plot: writing the header failed"));
  }
  SECTION("a record") {
    FullDisk disk(pos::plot_file_header_bytes + 100);
    std::ostream out(&disk);
    pos::PlotFileWriter writer(out, {15, pos::Mode::Abundance, 1}, "full.plot");
    CHECK_THROWS_WITH(writer.write(seed_of(0), make_result(15, {1})), Contains("writing record 0 failed"));
    CHECK(writer.records_written() == 0);
  }
}

// ---- the reader's checks --------------------------------------------------------------

TEST_CASE("plot file reader: refuses foreign files by their magic, even short ones") {
  CHECK_THAT(read_error(std::string(64, 'x')), Contains("test.plot is not a sprig plot file (bad magic)"));
  CHECK_THAT(read_error("abc"), Contains("bad magic"));
  CHECK_THAT(read_error("SPRIGPOX" + std::string(24, '\0')), Contains("bad magic"));
}

TEST_CASE("plot file reader: a truncated header says how much of it is there") {
  const std::string bytes = write(small_plot());
  CHECK_THAT(read_error(""), Contains("is truncated: its header needs 32 bytes, 0 are present"));
  CHECK_THAT(read_error(bytes.substr(0, 20)), Contains("is truncated: its header needs 32 bytes, 20 are present"));
}

TEST_CASE("plot file reader: refuses each impossible header field") {
  const std::string good = write(small_plot());
  auto with_word = [&](std::size_t offset, std::uint32_t v) {
    std::string bytes = good;
    put_u32(bytes, offset, v);
    return read_error(bytes);
  };
  CHECK_THAT(with_word(8, 2), Contains("has format version 2; this program reads version 1"));
  CHECK_THAT(with_word(12, 14), Contains("has a bad header: K = 14 is out of range 15..28"));
  CHECK_THAT(with_word(12, 0xffffffff), Contains("K = 4294967295 is out of range"));
  CHECK_THAT(with_word(16, 65537), Contains("a record count of 65537 is more than a plot file holds (65536)"));
  CHECK_THAT(with_word(20, 2), Contains("plotting rules 2 are unknown (0 Abundance, 1 Subspace)"));
  for (std::size_t offset = 24; offset < 32; ++offset) {
    std::string bytes = good;
    bytes[offset] = 1;
    CHECK_THAT(read_error(bytes), Contains("has reserved header bytes 24..31 that are not zero"));
  }
}

TEST_CASE("plot file reader: a truncated record names the field and its offset") {
  const Plot plot = small_plot();
  const std::string bytes = write(plot);
  const std::size_t second = record_start(plot, 1);
  const std::size_t proofs_at = second + kSBucketsAt + 4 * plot.records[1].count();
  struct Cut {
    std::size_t length;
    std::string message;
  };
  const std::vector<Cut> cuts = {
      {second + 10, "record 1's seed: 32 bytes are needed at offset " + std::to_string(second) + ", 10 are left"},
      {second + kCountAt + 1,
       "record 1's proof count: 4 bytes are needed at offset " + std::to_string(second + kCountAt)},
      {second + kBitmapAt + 8000, "record 1's found-proofs bitmap: 8192 bytes are needed"},
      {second + kSBucketsAt + 4, "record 1's s-buckets: 8 bytes are needed"},
      {bytes.size() - 1,
       "record 1's proofs: 240 bytes are needed at offset " + std::to_string(proofs_at) + ", 239 are left"},
  };
  for (const Cut& cut : cuts) {
    INFO("length " << cut.length);
    CHECK_THAT(read_error(bytes.substr(0, cut.length)), Contains("test.plot is truncated in " + cut.message));
  }
  // A record count larger than the file ends at the first missing byte.
  std::string counted_more = bytes;
  put_u32(counted_more, 16, 3);
  CHECK_THAT(read_error(counted_more), Contains("truncated in record 2's seed: 32 bytes are needed"));
}

TEST_CASE("plot file reader: bytes after the last record are an error") {
  CHECK_THAT(read_error(write(small_plot()) + "junk"),
             Contains("has 4 bytes after its last record (its header counts 2 records), from offset"));
}

TEST_CASE("plot file reader: a proof count over 2^15 is refused before reading the proofs") {
  std::string bytes = write(small_plot());
  put_u32(bytes, pos::plot_file_header_bytes + kCountAt, pos::proofs_per_record + 1);
  CHECK_THAT(read_error(bytes), Contains("record 0 claims 32769 proofs (at most 32768)"));
}

TEST_CASE("plot file reader: a record whose bitmap disagrees with its s-buckets is marked and read past") {
  const Plot plot = small_plot();
  const std::string good = write(plot);
  const std::size_t second = record_start(plot, 1);
  auto second_record = [&](const std::string& bytes) {
    std::vector<pos::PlotFileRecord> records = read_all(bytes);
    REQUIRE(records.size() == 2);
    CHECK(records[0].inconsistency.empty());
    return records[1].inconsistency;
  };
  std::string extra_bit = good;
  extra_bit[second + kBitmapAt] |= 2;  // s-bucket 1, not listed
  CHECK_THAT(second_record(extra_bit), Contains("3 bits set for 2 s-buckets"));

  std::string moved_bit = good;
  moved_bit[second + kBitmapAt] = 2;  // s-bucket 1 instead of 0
  CHECK_THAT(second_record(moved_bit), Contains("s-bucket 0 is not set in the bitmap"));

  std::string descending = good;  // s-buckets {65535, 0}
  put_u32(descending, second + kSBucketsAt, 65535);
  put_u32(descending, second + kSBucketsAt + 4, 0);
  CHECK_THAT(second_record(descending), Contains("not ascending at entry 1"));

  std::string out_of_range = good;
  put_u32(out_of_range, second + kSBucketsAt + 4, 70000);
  CHECK_THAT(second_record(out_of_range), Contains("s-bucket 70000 is out of range"));
}
