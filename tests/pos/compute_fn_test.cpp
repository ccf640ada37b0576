// compute_fn against chiapos's K = 16 vectors (pos-spec §2.2, from chiapos tests/test.cpp), one
// test case per table, at K = 27 and 28 (ys over 32 bits, inputs over 256 bits) against its
// input packed bit by bit and hashed as a message, plus its input sizes and argument checks.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "pos_test_support.hpp"

using namespace pos_ref;

namespace {

// compute_fn written out the slow way, sharing nothing with it but BLAKE3 of a whole message
// (checked against b3sum's vectors elsewhere): y_L's K + 6 bits then both metadata, MSB-first
// and zero-padded to bytes; the child's y is the digest's first K + 6 bits, its metadata
// (tables 4..6) the bits after them.
FnOutput compute_fn_bit_by_bit(int k, int table, std::uint64_t y_left, Metadata meta_left, Metadata meta_right) {
  const int pm = metadata_bits(k, table - 1);
  std::vector<bool> bits;
  auto append = [&](Metadata v, int n) {
    for (int i = n - 1; i >= 0; --i) bits.push_back(((v >> i) & 1) != 0);
  };
  append(y_left, k + 6);
  append(meta_left, pm);
  append(meta_right, pm);
  std::vector<std::uint8_t> input((bits.size() + 7) / 8, 0);
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) input[i / 8] |= std::uint8_t(0x80 >> (i % 8));
  REQUIRE(input.size() == std::size_t(fn_input_bytes(k, table)));

  const Blake3Hash digest = blake3(input);
  auto digest_bits = [&](int from, int n) {
    Metadata v = 0;
    for (int i = from; i < from + n; ++i) v = (v << 1) | ((digest[std::size_t(i) / 8] >> (7 - i % 8)) & 1);
    return v;
  };
  FnOutput out{std::uint64_t(digest_bits(0, k + 6)), 0};
  if (table <= 3)
    out.metadata = (meta_left << pm) | meta_right;
  else if (table <= 6)
    out.metadata = digest_bits(k + 6, metadata_bits(k, table));
  return out;
}

Metadata random_bits(std::mt19937_64& rng, int bits) {
  Metadata v = (Metadata(rng()) << 64) | rng();
  return bits == 128 ? v : v & ((Metadata(1) << bits) - 1);
}

}  // namespace

TEST_CASE("compute_fn table 2 equals chiapos's K = 16 vectors") {
  auto a = compute_fn(16, 2, 0x20a61a, 0x44cb, 0x204f);
  CHECK(a.y == 0x2af546u);
  CHECK(a.metadata == Metadata(0x44cb204fu));
  CHECK(compute_fn(16, 2, 0x3988ec, 0x3c5f, 0xfda9).y == 0x15293bu);
}

TEST_CASE("compute_fn table 3 equals chiapos's K = 16 vectors") {
  auto a = compute_fn(16, 3, 0x31e541, 0x35bf992d, 0x7ce42c82);
  CHECK(a.y == 0xf73b3u);
  CHECK(a.metadata == Metadata(0x35bf992d7ce42c82ull));
  CHECK(compute_fn(16, 3, 0x28a188, 0x7204e52d, 0xf1fd42a2).y == 0x3fb0b5u);
}

TEST_CASE("compute_fn table 4 equals chiapos's K = 16 vectors") {
  auto a = compute_fn(16, 4, 0x30cb4c, 0x5b6e6e307d4bedcull, 0x8a9a021ea648a7ddull);
  CHECK(a.y == 0x11ad5u);
  CHECK(a.metadata == Metadata(0xd4bd0b144fc26138ull));
  auto b = compute_fn(16, 4, 0x1dd5b6, 0xb9d179e06c0fd4f5ull, 0xf06d3fef701966a0ull);
  CHECK(b.y == 0xe69a2u);
  CHECK(b.metadata == Metadata(0xd02115f512009d4dull));
}

TEST_CASE("compute_fn table 5 equals chiapos's K = 16 vectors") {
  auto a = compute_fn(16, 5, 0x25f01e, 0xc2cd789a380208a9ull, 0x19999e3fa46d6753ull);
  CHECK(a.y == 0x1f22bdu);
  CHECK(a.metadata == Metadata(0xabe423040a33ull));
  auto b = compute_fn(16, 5, 0x3feb18, 0xbe3edc0a1ef2a4f0ull, 0x4da98f1d3099fdf5ull);
  CHECK(b.y == 0x31501eu);
  CHECK(b.metadata == Metadata(0x7300a3a03ac5ull));
}

TEST_CASE("compute_fn table 6 equals chiapos's K = 16 vectors") {
  auto a = compute_fn(16, 6, 0x1f121a, 0xc965815a47c5ull, 0xf5e008d6af57ull);
  CHECK(a.y == 0x1cabbeu);
  CHECK(a.metadata == Metadata(0xc8cc6947u));
  auto b = compute_fn(16, 6, 0x2efde9, 0xd420677f6cbdull, 0x5894aa2ca1afull);
  CHECK(b.y == 0xc2121u);
  CHECK(b.metadata == Metadata(0x421bb8ecu));
}

TEST_CASE("compute_fn table 7 equals chiapos's K = 16 vectors and has no metadata") {
  auto a = compute_fn(16, 7, 0x14f410, 0x5fec898f, 0x82283d15);
  CHECK(a.y == 0x24c3c2u);
  CHECK(a.metadata == Metadata(0));
  CHECK(compute_fn(16, 7, 0x590fd, 0x64ac5db9, 0x7923986).y == 0x1c74a2u);
}

TEST_CASE("compute_fn inputs are 9, 14, 24, 24, 19 and 14 bytes at K = 20") {
  CHECK(fn_input_bytes(20, 2) == 9);
  CHECK(fn_input_bytes(20, 3) == 14);
  CHECK(fn_input_bytes(20, 4) == 24);
  CHECK(fn_input_bytes(20, 5) == 24);
  CHECK(fn_input_bytes(20, 6) == 19);
  CHECK(fn_input_bytes(20, 7) == 14);
  CHECK(fn_input_bytes(25, 4) == 29);  // the widest: 31 + 2·100 bits
}

TEST_CASE("compute_fn at K = 25 keeps all 100 metadata bits of table 3") {
  Metadata left = 0x3ffffffffffffull, right = 0x2123456789abcull;  // 50 bits each
  auto out = compute_fn(25, 3, (1u << 31) - 1, left, right);
  CHECK(out.metadata == ((left << 50) | right));
  CHECK((out.metadata >> 64) == Metadata(0xfffffffffull));  // bits 64..99
  CHECK(out.y < (1u << 31));
}

TEST_CASE("compute_fn at K = 27 hashes all 33 bits of a y_left over 2^32 and gives 33-bit ys") {
  std::mt19937_64 rng(27);
  std::size_t wide = 0;
  for (std::uint64_t y_left : {1ull << 32, 0x123456789ull, 0x1fedcba98ull, (1ull << 33) - 1}) {
    for (int table = 2; table <= 7; ++table) {
      const int pm = metadata_bits(27, table - 1);
      const Metadata left = random_bits(rng, pm), right = random_bits(rng, pm);
      INFO("table " << table << ", y_left " << y_left);
      const FnOutput got = compute_fn(27, table, y_left, left, right);
      const FnOutput expected = compute_fn_bit_by_bit(27, table, y_left, left, right);
      CHECK(got.y == expected.y);
      CHECK(got.metadata == expected.metadata);
      CHECK(got.y < (1ull << 33));
      wide += got.y >= (1ull << 32);
    }
  }
  CHECK(wide > 0);  // the top bit of the child's y is read, not cut at 32 (about half of 24)
  // Only y_left's 33rd bit differs: the hash sees it.
  CHECK(compute_fn(27, 2, 0x123456789ull, 5, 6).y != compute_fn(27, 2, 0x023456789ull, 5, 6).y);
  CHECK_THROWS_AS(compute_fn(27, 2, 1ull << 33, 0, 0), std::invalid_argument);
}

TEST_CASE("compute_fn at K = 28 hashes inputs of 34 + 2·112 = 258 bits, past four words") {
  CHECK(fn_input_bytes(28, 4) == 33);
  CHECK(fn_input_bytes(28, 5) == 33);
  std::mt19937_64 rng(28);
  for (int table = 2; table <= 7; ++table) {
    const int pm = metadata_bits(28, table - 1);
    const std::uint64_t y_left = random_bits(rng, 34);
    const Metadata left = random_bits(rng, pm), right = random_bits(rng, pm);
    INFO("table " << table);
    const FnOutput got = compute_fn(28, table, y_left, left, right);
    const FnOutput expected = compute_fn_bit_by_bit(28, table, y_left, left, right);
    CHECK(got.y == expected.y);
    CHECK(got.metadata == expected.metadata);
  }
  // The last two input bits (meta_right's lowest, bits 256 and 257) change the hash.
  const Metadata ones = (Metadata(1) << 112) - 1;
  CHECK(compute_fn(28, 5, 7, ones, ones).y != compute_fn(28, 5, 7, ones, ones - 3).y);
}

TEST_CASE("compute_fn rejects a bad table, K out of range and metadata wider than the parent's") {
  CHECK_THROWS_WITH(compute_fn(16, 1, 0, 0, 0), Catch::Contains("table 1 has no compute_fn"));
  CHECK_THROWS_WITH(compute_fn(16, 8, 0, 0, 0), Catch::Contains("table 8"));
  CHECK_THROWS_WITH(compute_fn(14, 2, 0, 0, 0), Catch::Contains("K = 14 is out of range"));
  CHECK_THROWS_AS(compute_fn(16, 2, 0, 1u << 16, 0), std::invalid_argument);
  CHECK_THROWS_AS(compute_fn(16, 2, 1u << 22, 0, 0), std::invalid_argument);
}
