// The reference's own BLAKE3 (one chunk) against the BLAKE3 team's official vectors
// (tests/hash/blake3_test_vectors.json): every input of at most 1024 bytes, hash and keyed_hash.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "pos_test_support.hpp"

using namespace pos_ref;

namespace {

nlohmann::json official_vectors() {
  std::ifstream in(SPRIG_BLAKE3_VECTORS);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// The official inputs are the bytes 0, 1, ..., 250, 0, 1, ... repeated.
std::vector<std::uint8_t> official_input(std::size_t n) {
  std::vector<std::uint8_t> input(n);
  for (std::size_t i = 0; i < n; ++i) input[i] = std::uint8_t(i % 251);
  return input;
}

}  // namespace

TEST_CASE("the reference BLAKE3 equals the official vectors for inputs of one chunk") {
  auto vectors = official_vectors();
  std::string key_text = vectors["key"];
  Blake3Key key;
  for (int i = 0; i < 32; ++i) key[i] = std::uint8_t(key_text[i]);
  int checked = 0;
  for (const auto& c : vectors["cases"]) {
    std::size_t n = c["input_len"];
    if (n > 1024) continue;
    auto input = official_input(n);
    std::string hash = c["hash"], keyed = c["keyed_hash"];
    CHECK(pos_test::hex(blake3(input)) == hash.substr(0, 64));
    CHECK(pos_test::hex(blake3_keyed(key, input)) == keyed.substr(0, 64));
    ++checked;
  }
  CHECK(checked == 17);  // lengths 0..8, 63..65, 127..129, 1023 and 1024
}

TEST_CASE("the reference BLAKE3 rejects inputs longer than one chunk") {
  std::vector<std::uint8_t> input(1025);
  CHECK_THROWS_WITH(blake3(input), Catch::Contains("1025 bytes"));
}
