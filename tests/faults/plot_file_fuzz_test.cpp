// Plot files from damaged disks, truncated copies and random bytes: reading them either
// yields records or throws pos::PlotFileError with a message; never another exception, a
// crash or a hang. The mutator is seeded, so a failure replays exactly.
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/stdlib/pos/plot_file.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

constexpr int kK = 15;

// A well-formed file of `records` records with a few proofs each (the proofs' bytes are
// arbitrary: the reader does not verify them).
std::string plot_file(std::uint32_t records, std::uint64_t seed = 1) {
  std::mt19937_64 random(seed);
  std::ostringstream out;
  pos::PlotFileWriter writer(out, {kK, pos::Mode::Abundance, records}, "plot");
  for (std::uint32_t r = 0; r < records; ++r) {
    pos::PlotResult result;
    result.k = kK;
    result.found_proofs.assign(pos::plot_file_bitmap_bytes, 0);
    for (std::uint32_t s = r; s < pos::num_s_buckets; s += 9973) {
      result.s_buckets.push_back(s);
      result.found_proofs[s / 8] |= std::uint8_t(1u << (s % 8));
    }
    for (std::size_t i = 0; i < result.s_buckets.size() * pos::proof_bytes(kK); ++i)
      result.proofs.push_back(std::uint8_t(random()));
    pos::Seed record_seed{};
    record_seed[0] = std::uint8_t(r);
    writer.write(record_seed, result);
  }
  writer.finish();
  return out.str();
}

struct Outcome {
  std::size_t records = 0;
  std::string error;  // empty: read to the end
};

// Reads every record; any exception other than PlotFileError escapes and fails the test.
Outcome read_all(const std::string& bytes) {
  std::istringstream in(bytes);
  Outcome outcome;
  try {
    pos::PlotFileReader reader(in, "plot");
    while (reader.next()) ++outcome.records;
  } catch (const pos::PlotFileError& e) {
    outcome.error = e.what();
  }
  return outcome;
}

// One random change of the kinds disks and copies make.
void mutate(std::string& bytes, std::mt19937_64& random) {
  auto position = [&] { return bytes.empty() ? 0 : std::size_t(random() % bytes.size()); };
  switch (random() % 6) {
    case 0:  // flipped bits
      for (int i = 0, n = 1 + int(random() % 8); i < n && !bytes.empty(); ++i) {
        bytes[position()] ^= char(1 << (random() % 8));
      }
      break;
    case 1:  // truncated
      bytes.resize(position());
      break;
    case 2:  // random bytes inserted
      bytes.insert(position(), std::string(1 + random() % 64, char(random())));
      break;
    case 3:  // a run overwritten with random bytes
      for (std::size_t p = position(), n = 1 + random() % 256; n > 0 && p < bytes.size(); --n, ++p) {
        bytes[p] = char(random());
      }
      break;
    case 4: {  // an aligned word set to an extreme value (counts, K, the version)
      if (bytes.size() < 4) break;
      static constexpr std::uint32_t extremes[] = {0,       1,       0x7fff,     0x8000,    0x8001,
                                                   0xffff,  0x10000, 0x7fffffff, 0xffffffff};
      std::uint32_t v = extremes[random() % std::size(extremes)];
      std::size_t p = position() / 4 * 4;
      for (int b = 0; b < 4 && p + b < bytes.size(); ++b) bytes[p + b] = char(v >> (8 * b));
      break;
    }
    default:  // random bytes appended
      bytes.append(std::string(1 + random() % 64, char(random())));
  }
}

}  // namespace

TEST_CASE("a well-formed plot file reads back every record") {
  const Outcome outcome = read_all(plot_file(3));
  CHECK(outcome.error.empty());
  CHECK(outcome.records == 3);
}

TEST_CASE("every truncation of a plot file is a PlotFileError saying it is truncated") {
  const std::string whole = plot_file(2);
  for (std::size_t length = 0; length < whole.size(); length += 1 + length / 64) {
    const Outcome outcome = read_all(whole.substr(0, length));
    INFO("length " << length);
    REQUIRE_THAT(outcome.error, Contains("truncated"));
  }
}

TEST_CASE("randomly damaged plot files are read or rejected with a PlotFileError, never anything worse") {
  std::mt19937_64 random(20261125);
  const std::string original = plot_file(2);
  std::size_t rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = original;
    for (int changes = 1 + int(random() % 4); changes > 0; --changes) mutate(bytes, random);
    const Outcome outcome = read_all(bytes);
    rejected += outcome.error.empty() ? 0 : 1;
  }
  // Most damage is caught without a device: structure, counts, sizes, trailing bytes.
  CHECK(rejected > 2000);
}

TEST_CASE("random bytes are rejected as not being a plot file") {
  std::mt19937_64 random(7);
  for (int round = 0; round < 500; ++round) {
    std::string bytes(random() % 4096, '\0');
    for (char& c : bytes) c = char(random());
    CHECK_FALSE(read_all(bytes).error.empty());
  }
}

TEST_CASE("a header with random fields after a valid magic is read or rejected quickly") {
  std::mt19937_64 random(11);
  for (int round = 0; round < 2000; ++round) {
    std::string bytes = plot_file(0);
    for (std::size_t i = 8; i < bytes.size(); ++i)
      if (random() % 4 == 0) bytes[i] = char(random());
    bytes += std::string(random() % 20000, char(random()));
    (void)read_all(bytes);  // a record count of 4 billion must end at the first missing byte
  }
  SUCCEED();
}

TEST_CASE("a plot file with bytes after its last record is rejected") {
  const Outcome outcome = read_all(plot_file(2) + std::string(17, '\x5a'));
  CHECK_THAT(outcome.error, Contains("17 bytes after its last record"));
}

TEST_CASE("a plot file with a reserved header byte set is rejected") {
  for (std::size_t offset = 24; offset < 32; ++offset) {
    std::string bytes = plot_file(1);
    bytes[offset] = 1;
    CHECK_THAT(read_all(bytes).error, Contains("reserved header bytes"));
  }
}

TEST_CASE("a record claiming more proofs than a record holds is rejected before reading them") {
  std::string bytes = plot_file(1);
  const std::size_t count_offset = pos::plot_file_header_bytes + 32;
  bytes[count_offset + 2] = 1;  // 65,536 + the real count
  CHECK_THAT(read_all(bytes).error, Contains("claims") && Contains("proofs (at most 32768)"));
}

TEST_CASE("a record whose bitmap disagrees with its s-buckets is read and marked inconsistent") {
  std::string bytes = plot_file(1);
  bytes[pos::plot_file_header_bytes + 36] ^= 2;  // s-bucket 1 set in the bitmap, not in the list
  std::istringstream in(bytes);
  pos::PlotFileReader reader(in, "plot");
  auto record = reader.next();
  REQUIRE(record);
  CHECK_THAT(record->inconsistency, Contains("bits set"));
}
