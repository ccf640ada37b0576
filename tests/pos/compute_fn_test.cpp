// compute_fn against chiapos's K = 16 vectors (pos-spec §2.2, from chiapos tests/test.cpp), one
// test case per table, plus its input sizes and argument checks.
#include <catch2/catch.hpp>

#include "pos_test_support.hpp"

using namespace pos_ref;

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

TEST_CASE("compute_fn rejects a bad table, K out of range and metadata wider than the parent's") {
  CHECK_THROWS_WITH(compute_fn(16, 1, 0, 0, 0), Catch::Contains("table 1 has no compute_fn"));
  CHECK_THROWS_WITH(compute_fn(16, 8, 0, 0, 0), Catch::Contains("table 8"));
  CHECK_THROWS_WITH(compute_fn(14, 2, 0, 0, 0), Catch::Contains("K = 14 is out of range"));
  CHECK_THROWS_AS(compute_fn(16, 2, 0, 1u << 16, 0), std::invalid_argument);
  CHECK_THROWS_AS(compute_fn(16, 2, 1u << 22, 0, 0), std::invalid_argument);
}
