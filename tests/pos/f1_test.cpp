// F1 and ChaCha8 of the reference: chiapos's published F1 vectors, the single-x and whole-table
// forms agreeing, F1 at K = 27 and 28 (ys over 32 bits, bit offsets over 2^32) against a
// bit-by-bit reading of the keystream, and K out of range rejected.
#include <catch2/catch.hpp>

#include "pos_test_support.hpp"

using namespace pos_ref;

namespace {

// chiapos keys ChaCha8 with 0x01 ‖ plot_id[0..30] (the last plot-id byte is dropped);
// Subspace and Abundance use the seed as it is. Only the chiapos vectors need this.
Seed chiapos_key(const Seed& plot_id) {
  Seed key{};
  key[0] = 1;
  for (int i = 0; i < 31; ++i) key[i + 1] = plot_id[i];
  return key;
}

// The plot id of chiapos's tests/test.cpp F1 cases.
constexpr Seed chiapos_plot_id{0, 2, 3, 4, 5, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                               1, 2, 3, 41, 5, 6, 7, 8, 9, 10, 11, 12, 13, 11, 15, 16};

// F1 written out the slow way, sharing nothing with f1() but ChaCha8's blocks: keystream byte n
// is byte n % 4 of word (n % 64) / 4 of block n / 64 (RFC 8439's serialization), and bit i of
// the stream is bit 7 - i % 8 of byte i / 8. All offsets in 64 bits.
std::uint64_t f1_bit_by_bit(const Seed& seed, int k, std::uint64_t x) {
  std::uint64_t partial = 0;
  for (std::uint64_t i = k * x; i < k * x + std::uint64_t(k); ++i) {
    std::uint64_t byte = i / 8;
    auto block = chacha8_block(seed, std::uint32_t(byte / 64));
    std::uint64_t value = (block[byte % 64 / 4] >> (8 * (byte % 4))) & 0xff;
    partial = (partial << 1) | ((value >> (7 - i % 8)) & 1);
  }
  return (partial << 6) | (x >> (k - 6));
}

}  // namespace

TEST_CASE("the chiapos key transform gives the key of the published F1 vectors") {
  auto key = chiapos_key(chiapos_plot_id);
  CHECK(pos_test::hex(key) == "010002030405050708090a0b0c0d0e0f100102032905060708090a0b0c0d0b0f");
}

TEST_CASE("F1 equals chiapos's K = 25 vectors") {
  auto key = chiapos_key(chiapos_plot_id);
  CHECK(f1(key, 25, 525) == 2016650816u);
  CHECK(f1(key, 25, 526) == 2063162112u);
  CHECK(f1(key, 25, 625) == 1930299520u);
}

TEST_CASE("F1 equals chiapos's K = 22 vectors") {
  auto key = chiapos_key(chiapos_plot_id);
  CHECK(f1(key, 22, 1837491) == 105738140u);
  CHECK(f1(key, 22, 1837492) == 192213404u);
  CHECK(f1(key, 22, 1837493) == 64977628u);
  CHECK(f1(key, 22, 1837491 + 255) == 91711644u);
}

TEST_CASE("F1 of the whole table equals F1 of each x") {
  for (int k : {15, 16, 17}) {
    auto ys = f1_all(pos_test::subspace_test_seed, k);
    REQUIRE(ys.size() == (1u << k));
    for (std::uint32_t x = 0; x < ys.size(); x += 97) CHECK(ys[x] == f1(pos_test::subspace_test_seed, k, x));
    CHECK(ys.back() == f1(pos_test::subspace_test_seed, k, (1u << k) - 1));
  }
}

// draft-strombergson-chacha-test-vectors-01, TC1 with 8 rounds (zero key and IV): with a zero
// nonce and counter 0 the IETF layout has the same state as the original one.
TEST_CASE("ChaCha8 block 0 of the zero key is the Strombergson TC1 keystream") {
  auto block = chacha8_block(Seed{}, 0);
  std::vector<std::uint8_t> bytes;
  for (auto w : block)
    for (int i = 0; i < 4; ++i) bytes.push_back(std::uint8_t(w >> (8 * i)));
  CHECK(pos_test::hex(bytes) ==
        "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f445367456d5619314a42a3da86b0"
        "01387bfdb80e0cfe42");
}

TEST_CASE("the big-endian keystream words are the byte-swapped block words, across blocks") {
  auto words = chacha8_keystream_be_words(pos_test::subspace_test_seed, 13, 20);
  auto block0 = chacha8_block(pos_test::subspace_test_seed, 0), block1 = chacha8_block(pos_test::subspace_test_seed, 1);
  for (int i = 0; i < 3; ++i) CHECK(words[i] == byte_swap(block0[13 + i]));
  for (int i = 0; i < 16; ++i) CHECK(words[3 + i] == byte_swap(block1[i]));
  CHECK(words[19] == byte_swap(chacha8_block(pos_test::subspace_test_seed, 2)[0]));
}

TEST_CASE("F1 at K = 27 and 28 cuts its K bits at K·x, past bit 2^32 of the keystream") {
  const Seed& seed = pos_test::subspace_test_seed;
  for (std::uint64_t x : {0ull, 1ull, 12345678ull, 100000000ull, (1ull << 27) - 1}) {
    INFO("K = 27, x = " << x);
    CHECK(f1(seed, 27, std::uint32_t(x)) == f1_bit_by_bit(seed, 27, x));
  }
  // At K = 28, 28·153391689 = 2^32 - 4: that field straddles bit 2^32, the next x starts past it.
  for (std::uint64_t x : {0ull, 153391688ull, 153391689ull, 153391690ull, 200000000ull, (1ull << 28) - 1}) {
    INFO("K = 28, x = " << x);
    CHECK(f1(seed, 28, std::uint32_t(x)) == f1_bit_by_bit(seed, 28, x));
  }
  CHECK(28 * 153391689ull < (1ull << 32));
  CHECK(28 * 153391689ull + 28 > (1ull << 32));
}

TEST_CASE("F1's y at K = 27 has 33 bits and uses the top one") {
  const Seed& seed = pos_test::subspace_test_seed;
  std::size_t wide = 0;
  for (std::uint32_t x = 0; x < (1u << 27); x += 65521) {  // 2049 x, spread over the table
    std::uint64_t y = f1(seed, 27, x);
    REQUIRE(y < (1ull << 33));
    REQUIRE((y & 63) == x >> 21);
    wide += y >= (1ull << 32);
  }
  CHECK(wide > 800);  // about half
  CHECK(wide < 1250);
}

TEST_CASE("K = 27 and 28 are supported, K = 29 is not") {
  CHECK(max_k == 28);
  CHECK_NOTHROW(check_k(27));
  CHECK_NOTHROW(check_k(28));
  CHECK_THROWS_WITH(check_k(29), Catch::Contains("K = 29 is out of range (supported: 15..28)"));
}

TEST_CASE("F1 rejects K out of range and x wider than K bits") {
  Seed seed{};
  CHECK_THROWS_WITH(f1(seed, 14, 0), Catch::Contains("K = 14 is out of range"));
  CHECK_THROWS_WITH(f1(seed, 29, 0), Catch::Contains("K = 29 is out of range"));
  CHECK_THROWS_AS(f1_all(seed, 0), std::invalid_argument);
  CHECK_THROWS_WITH(f1(seed, 15, 1u << 15), Catch::Contains("more than K = 15 bits"));
}
