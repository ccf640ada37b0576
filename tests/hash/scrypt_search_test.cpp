// The scrypt mining search: the Litecoin genesis block's nonce is found in a range around
// it, a range without a winner returns none, and a target every hash meets overflows the
// winners' buffer honestly.
#include <openssl/evp.h>

#include "hash_test_support.hpp"
#include "sprig/stdlib/hash/scrypt.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// The Litecoin genesis header (version 1, zero previous hash, merkle root 97ddfbba...,
// time 1317972665, bits 0x1e0ffff0, nonce 2084524493), block 0 of the public Litecoin chain.
const Bytes genesis = from_hex(
    "010000000000000000000000000000000000000000000000000000000000000000000000d9ced4ed1130f7b7faad9be25323ffafa33232a1"
    "7c3edf6cfd97bee6bafbdd97b9aa8e4ef0ff0f1ecd513f7c");
constexpr std::uint32_t genesis_nonce = 2084524493;

}  // namespace

// Bytes 27, 28, 29 of the little-endian target are f0 ff 0f.
TEST_CASE("the compact bits 0x1e0ffff0 encode 0x0ffff0 times 256^27") {
  std::array<std::uint32_t, 8> target = hash::scrypt_target_from_bits(0x1e0ffff0);
  CHECK(target == std::array<std::uint32_t, 8>{0, 0, 0, 0, 0, 0, 0xf0000000u, 0x00000fffu});
  CHECK(hash::scrypt_target_from_bits(0x03123456) == std::array<std::uint32_t, 8>{0x123456, 0, 0, 0, 0, 0, 0, 0});
  CHECK_THROWS_WITH(hash::scrypt_target_from_bits(0x1e8ffff0), Catch::Contains("negative"));
  CHECK_THROWS_WITH(hash::scrypt_target_from_bits(0x22123456), Catch::Contains("256 bits"));
}

TEST_CASE("the scrypt search finds the Litecoin genesis nonce") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  REQUIRE(genesis.size() == 80);
  auto result = hash::scrypt_search(dev, genesis, genesis_nonce - 5, 12, hash::scrypt_target_from_bits(0x1e0ffff0));
  CHECK(result.nonces == std::vector<std::uint32_t>{genesis_nonce});
  CHECK(result.found == 1);
  CHECK_FALSE(result.overflow);
}

TEST_CASE("the scrypt search returns no nonce from a range without a winner") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  auto result = hash::scrypt_search(dev, genesis, genesis_nonce + 1, 12, hash::scrypt_target_from_bits(0x1e0ffff0));
  CHECK(result.nonces.empty());
  CHECK(result.found == 0);
  CHECK_FALSE(result.overflow);
}

// With the largest target every nonce wins: 10 winners, room for 4.
TEST_CASE("the scrypt search reports more winners than its capacity as an overflow") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::array<std::uint32_t, 8> everything;
  everything.fill(0xffffffffu);
  auto result = hash::scrypt_search(dev, genesis, 100, 10, everything, {16, 1, 1}, 4);
  CHECK(result.found == 10);
  CHECK(result.overflow);
  REQUIRE(result.nonces.size() == 4);
  for (std::uint32_t n : result.nonces) CHECK((n >= 100 && n < 110));
  CHECK(std::is_sorted(result.nonces.begin(), result.nonces.end()));
}

// N, r and p stay parameters of the search: with N=16, r=2, p=2 and the target set to one
// hash's value (from OpenSSL), exactly the nonces whose hash is at most it win.
TEST_CASE("the scrypt search with other N, r, p keeps exactly the hashes at most the target") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  hash::ScryptParams params{16, 2, 2};
  std::vector<Bytes> hashes;
  for (std::uint32_t nonce = 0; nonce < 8; ++nonce) {
    Bytes header = genesis;
    for (int k = 0; k < 4; ++k) header[76 + k] = std::uint8_t(nonce >> (8 * k));
    Bytes out(32);
    REQUIRE(EVP_PBE_scrypt(reinterpret_cast<const char*>(header.data()), 80, header.data(), 80, params.N, params.r,
                           params.p, 0, out.data(), 32) == 1);
    hashes.push_back(out);
  }
  auto as_number = [](const Bytes& h) { return Bytes(h.rbegin(), h.rend()); };  // big-endian, comparable
  Bytes median = as_number(hashes[3]);
  std::array<std::uint32_t, 8> target{};
  for (std::size_t i = 0; i < 32; ++i) target[i / 4] |= std::uint32_t(hashes[3][i]) << (8 * (i % 4));
  std::vector<std::uint32_t> expected;
  for (std::uint32_t nonce = 0; nonce < 8; ++nonce)
    if (as_number(hashes[nonce]) <= median) expected.push_back(nonce);
  for (bool cooperative : {false, true}) {
    auto result = hash::scrypt_search(dev, genesis, 0, 8, target, params, 8,
                                      {hash::ScryptLayout::Contiguous, cooperative});
    CHECK(result.nonces == expected);
  }
}
