// Record encoding: each proven s-bucket's chunk XOR BLAKE3 of its proof, in s-bucket order,
// parity chunks included; decoding is the same XOR; seeds derive from the sector.
#include <catch2/catch.hpp>

#include <random>

#include "pos_test_support.hpp"

using namespace pos_ref;

namespace {

std::vector<Chunk> random_extended_record(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Chunk> chunks(num_s_buckets);
  for (auto& c : chunks)
    for (auto& b : c) b = std::uint8_t(rng());
  return chunks;
}

}  // namespace

TEST_CASE("an encoded K = 20 record XORs chunk s with BLAKE3 of s's proof, for the first 2^15 proofs") {
  const Tables& tables = pos_test::k20_tables(Mode::Abundance);
  auto extended = random_extended_record(1);
  EncodedRecord record = encode_record(tables, extended);
  REQUIRE(record.chunks.size() == 32768u);
  CHECK(record.proofs.s_buckets == pos_test::k20_proofs(Mode::Abundance).s_buckets);
  std::size_t parity = 0;
  for (std::size_t i = 0; i < record.chunks.size(); ++i) {
    std::uint32_t s = record.proofs.s_buckets[i];
    auto mask = blake3(record.proofs.proof(i));
    for (std::size_t j = 0; j < chunk_bytes; ++j) REQUIRE((record.chunks[i][j] ^ mask[j]) == extended[s][j]);
    REQUIRE(encode_chunk(record.chunks[i], record.proofs.proof(i)) == extended[s]);  // decoding
    parity += s >= num_chunks;
  }
  CHECK(parity > 0);  // s-buckets 32768.. take parity chunks
}

TEST_CASE("encoding from a seed equals encoding from its tables") {
  Seed seed = pos_test::subspace_test_seed;
  seed[5] = 99;
  auto extended = random_extended_record(2);
  EncodedRecord a = encode_record(seed, 15, Mode::Abundance, extended);
  EncodedRecord b = encode_record(build_tables(seed, 15, Mode::Abundance), extended);
  CHECK(a.chunks == b.chunks);
  CHECK(a.proofs.found_proofs == b.proofs.found_proofs);
}

TEST_CASE("encoding rejects a record that is not 2^16 chunks") {
  std::vector<Chunk> chunks(num_chunks);
  CHECK_THROWS_WITH(encode_record(pos_test::subspace_test_seed, 15, Mode::Abundance, chunks),
                    Catch::Contains("32768 chunks, not 2^16"));
}

TEST_CASE("record seeds are BLAKE3 of the sector id and the piece offset, little-endian") {
  Blake3Hash sector{};
  for (int i = 0; i < 32; ++i) sector[i] = std::uint8_t(i);
  std::vector<std::uint8_t> input(sector.begin(), sector.end());
  input.push_back(0x34), input.push_back(0x12);
  CHECK(record_seed(sector, 0x1234) == blake3(input));
  CHECK(record_seed(sector, 0x1234) != record_seed(sector, 0x3412));
}

TEST_CASE("sector ids are keyed BLAKE3 of sector index, history size and shard commitments root") {
  Blake3Key key{};
  key[0] = 7;
  Blake3Hash root{};
  root[31] = 1;
  std::vector<std::uint8_t> input{0x02, 0x01, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
  input.insert(input.end(), root.begin(), root.end());
  CHECK(sector_id(key, 0x0102, 0x0102030405060708ull, root) == blake3_keyed(key, input));
}
