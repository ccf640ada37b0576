// The Bitcoin-style double-SHA-256 mining search: the Bitcoin genesis block's nonce is found
// in a range around it; across a range with an easy target the winners are exactly the
// nonces OpenSSL's SHA-256(SHA-256(header)) says win; ranges that span several launches and
// the last nonce 2^32 - 1 work; an overflow and bad arguments are reported. The searches
// run with their adds in both forms (hash_adds.hpp): plain, and as multiply-adds.
#include <openssl/sha.h>

#include "hash_test_support.hpp"
#include "sprig/stdlib/hash/sha256d_search.hpp"
#include "sprig/stdlib/tiling.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// The Bitcoin genesis header, block 0 of the public Bitcoin chain: version 1, a zero previous
// hash, merkle root 4a5e1e4b...3ba3edfd (stored byte-reversed), time 1231006505, bits
// 0x1d00ffff, nonce 2083236893. Its hash, displayed big-endian as block explorers do, is
// 000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f.
const Bytes genesis = from_hex(
    "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3"
    "888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c");
constexpr std::uint32_t genesis_nonce = 2083236893;

Bytes with_nonce(Bytes header, std::uint32_t nonce) {
  for (int b = 0; b < 4; ++b) header[76 + b] = std::uint8_t(nonce >> (8 * b));
  return header;
}

// SHA-256(SHA-256(header)) by OpenSSL, as the 8 little-endian words of a 256-bit number.
std::array<std::uint32_t, 8> double_sha256_number(const Bytes& header) {
  unsigned char once[32], twice[32];
  SHA256(header.data(), header.size(), once);
  SHA256(once, 32, twice);
  std::array<std::uint32_t, 8> words{};
  for (int i = 0; i < 32; ++i) words[i / 4] |= std::uint32_t(twice[i]) << (8 * (i % 4));
  return words;
}

bool at_most(const std::array<std::uint32_t, 8>& number, const std::array<std::uint32_t, 8>& target) {
  for (int k = 7; k >= 0; --k)
    if (number[k] != target[k]) return number[k] < target[k];
  return true;
}

// One hash in 16 wins: the number's top word below 0x10000000.
std::array<std::uint32_t, 8> easy_target() {
  std::array<std::uint32_t, 8> target;
  target.fill(0xffffffffu);
  target[7] = 0x0fffffffu;
  return target;
}

}  // namespace

TEST_CASE("OpenSSL hashes the Bitcoin genesis header to the block's published hash") {
  std::array<std::uint32_t, 8> number = double_sha256_number(genesis);
  CHECK(number[7] == 0x00000000u);
  CHECK(number[6] == 0x0019d668u);
  CHECK(number[0] == 0x8ce26fu + (0x0au << 24));
  CHECK(at_most(number, hash::target_from_bits(0x1d00ffff)));
}

TEST_CASE("the double-SHA-256 search finds the Bitcoin genesis nonce") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));
  auto result = hash::sha256d_search(dev, genesis, genesis_nonce - 1000, 2001, hash::target_from_bits(0x1d00ffff));
  CHECK(result.nonces == std::vector<std::uint32_t>{genesis_nonce});
  CHECK(result.found == 1);
  CHECK_FALSE(result.overflow);
  auto none = hash::sha256d_search(dev, genesis, genesis_nonce + 1, 1000, hash::target_from_bits(0x1d00ffff));
  CHECK(none.nonces.empty());
  CHECK(none.found == 0);
}

TEST_CASE("the double-SHA-256 search keeps exactly the nonces OpenSSL says win") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));
  const std::uint32_t first = 123456, count = 3000;
  std::vector<std::uint32_t> expected;
  for (std::uint32_t n = first; n < first + count; ++n)
    if (at_most(double_sha256_number(with_nonce(genesis, n)), easy_target())) expected.push_back(n);
  REQUIRE(expected.size() > 100);  // about 3000 / 16
  auto result = hash::sha256d_search(dev, genesis, first, count, easy_target(), 1000);
  CHECK(result.nonces == expected);
  CHECK(result.found == expected.size());
  CHECK_FALSE(result.overflow);
}

TEST_CASE("the double-SHA-256 search reaches nonce 2^32 - 1 and spans several launches") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::uint32_t last = 0xffffffffu;
  std::vector<std::uint32_t> expected;
  for (std::uint32_t n = last - 99; n != 0; ++n)
    if (at_most(double_sha256_number(with_nonce(genesis, n)), easy_target())) expected.push_back(n);
  auto result = hash::sha256d_search(dev, genesis, last - 99, 100, easy_target(), 100);
  CHECK(result.nonces == expected);
  // A launch lays its workgroups out in rows of 32768 (2^23 nonces) and covers 2^26 nonces:
  // a range across both kinds of boundary finds each winner near them once.
  if (dev.info().backend == "vulkan") {
    const std::uint32_t launch = hash::detail::sha256d_nonces_per_launch;
    auto across = hash::sha256d_search(dev, genesis, 0, std::uint64_t(launch) + 100, easy_target(), 1u << 24);
    CHECK(across.found == across.nonces.size());
    for (std::uint32_t edge : {sprig::detail::max_workgroups_per_row * hash::detail::sha256d_search_workgroup, launch}) {
      std::vector<std::uint32_t> near_edge, window;
      for (std::uint32_t n = edge - 100; n < edge + 100; ++n)
        if (at_most(double_sha256_number(with_nonce(genesis, n)), easy_target())) near_edge.push_back(n);
      for (std::uint32_t n : across.nonces)
        if (n >= edge - 100 && n < edge + 100) window.push_back(n);
      CHECK(window == near_edge);
    }
  }
}

TEST_CASE("the double-SHA-256 search reports an overflow and rejects bad arguments") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  std::array<std::uint32_t, 8> everything;
  everything.fill(0xffffffffu);
  auto result = hash::sha256d_search(dev, genesis, 100, 10, everything, 4);
  CHECK(result.found == 10);
  CHECK(result.overflow);
  REQUIRE(result.nonces.size() == 4);
  for (std::uint32_t n : result.nonces) CHECK((n >= 100 && n < 110));
  CHECK_THROWS_WITH(hash::sha256d_search(dev, Bytes(79), 0, 1, everything), Catch::Contains("80 bytes, not 79"));
  CHECK_THROWS_WITH(hash::sha256d_search(dev, genesis, 0xfffffff0u, 17, everything), Catch::Contains("passes 2^32 - 1"));
  CHECK_THROWS_WITH(hash::sha256d_search(dev, genesis, 0, 1, everything, 0), Catch::Contains("capacity"));
}
