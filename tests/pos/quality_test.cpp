// Quality strings: the table walk and the proof's x pair give the same SHA-256, and only a
// valid proof for the challenge has a quality.
#include <catch2/catch.hpp>

#include <openssl/sha.h>

#include "pos_test_support.hpp"

using namespace pos_ref;

namespace {

// Subspace's tests put the challenge index, little-endian, in the first 4 challenge bytes.
Challenge challenge_of(std::uint32_t index, std::uint8_t last_byte) {
  Challenge c{};
  for (int i = 0; i < 4; ++i) c[i] = std::uint8_t(index >> (8 * i));
  c[31] = last_byte;
  return c;
}

}  // namespace

TEST_CASE("the first K challenge bits are big-endian") {
  CHECK(challenge_bits(20, challenge_of(650, 0)) == subspace_challenge_bits(20, 650));
  CHECK(challenge_bits(16, challenge_of(0x12345678, 0)) == 0x7856u);
}

TEST_CASE("quality from the tables equals quality from the proof for every x pair") {
  const Tables& tables = pos_test::k20_tables(Mode::Subspace);
  for (std::uint32_t index : {600426542u, 1011u, 650u}) {
    auto t7 = subspace_find_t7(tables, index);
    REQUIRE(t7);
    auto proof = pack_proof(20, expand_proof(tables, *t7));
    for (unsigned q = 0; q < 32; ++q) {
      auto challenge = challenge_of(index, std::uint8_t(0xe0 | q));  // only the low 5 bits pick the pair
      INFO("challenge index " << index << ", pair " << q);
      auto quality = verify_quality(pos_test::subspace_test_seed, 20, challenge, proof);
      REQUIRE(quality);
      CHECK(*quality == find_quality(tables, *t7, challenge));
      CHECK(*quality == proof_quality(20, challenge, proof));
    }
  }
}

TEST_CASE("quality is SHA-256 of the challenge and x pair q packed into 5 bytes at K = 20") {
  auto proof = pos_test::from_hex(pos_test::subspace_proof_650);
  auto xs = unpack_proof(20, proof);
  auto challenge = challenge_of(650, 3);
  std::vector<std::uint8_t> input(challenge.begin(), challenge.end());
  std::uint64_t pair = std::uint64_t(xs[6]) << 20 | xs[7];  // 40 bits
  for (int i = 4; i >= 0; --i) input.push_back(std::uint8_t(pair >> (8 * i)));
  Quality expected;
  SHA256(input.data(), input.size(), expected.data());
  CHECK(proof_quality(20, challenge, proof) == expected);
}

TEST_CASE("a proof has no quality for another challenge") {
  auto proof = pos_test::from_hex(pos_test::subspace_proof_650);
  CHECK_FALSE(verify_quality(pos_test::subspace_test_seed, 20, challenge_of(651, 0), proof));
}
