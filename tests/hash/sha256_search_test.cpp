// The single-block SHA-256 preimage search (hashcat's brute-force work): the candidate whose
// message OpenSSL hashes to the digest is found, and no other, at every position of the
// padding (message lengths 4 to 55 around each word boundary); a digest whose last word
// matches but another does not (the early check passes, the full one fails) has no winner;
// ranges reach candidate 2^32 - 1 and span launches; bad arguments are reported. The
// searches run with their adds in both forms (hash_adds.hpp): plain, and as multiply-adds.
#include <random>

#include "hash_test_support.hpp"
#include "sprig/stdlib/hash/sha256_search.hpp"
#include "sprig/stdlib/tiling.hpp"

using namespace sprig;
using namespace hash_test;

namespace {

// `message` with its first four bytes replaced by `candidate`, big-endian.
Bytes with_candidate(Bytes message, std::uint32_t candidate) {
  for (int b = 0; b < 4; ++b) message[b] = std::uint8_t(candidate >> (24 - 8 * b));
  return message;
}

Bytes random_message(std::size_t bytes, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes message(bytes);
  for (auto& b : message) b = std::uint8_t(rng());
  return message;
}

}  // namespace

TEST_CASE("the SHA-256 search finds the one candidate OpenSSL hashes to the digest, at every padding position") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));
  // Lengths on both sides of each word boundary of the padding, and the longest.
  for (std::size_t bytes : {4, 5, 6, 7, 8, 11, 12, 13, 31, 32, 51, 52, 53, 54, 55}) {
    INFO(bytes << " bytes");
    const std::uint32_t candidate = 0x9e3779b9u + std::uint32_t(bytes) * 7919u;
    Bytes message = with_candidate(random_message(bytes, std::uint32_t(bytes)), candidate);
    Bytes digest = openssl_sha256(message);
    auto result = hash::sha256_search(dev, message, candidate - 150, 300, digest);
    CHECK(result.nonces == std::vector<std::uint32_t>{candidate});
    CHECK(result.found == 1);
    CHECK_FALSE(result.overflow);
    auto none = hash::sha256_search(dev, message, candidate + 1, 300, digest);
    CHECK(none.nonces.empty());
    CHECK(none.found == 0);
  }
}

TEST_CASE("the SHA-256 search passes its early check and still rejects a digest that differs in another word") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  ScopedHashAdds adds(GENERATE("plain", "multiply-add"));
  const std::uint32_t candidate = 0x61626364u;  // "abcd"
  Bytes message = with_candidate(Bytes{'a', 'b', 'c', 'd', 'e', 'f', 'g'}, candidate);
  Bytes digest = openssl_sha256(message);
  for (std::size_t byte : {0, 13, 27}) {  // words 0, 3 and 6; word 7 is the early check's
    INFO("byte " << byte);
    Bytes other = digest;
    other[byte] ^= 0x01;
    auto result = hash::sha256_search(dev, message, candidate - 10, 20, other);
    CHECK(result.nonces.empty());
    CHECK(result.found == 0);
  }
  CHECK(hash::sha256_search(dev, message, candidate - 10, 20, digest).nonces == std::vector<std::uint32_t>{candidate});
}

TEST_CASE("the SHA-256 search reaches candidate 2^32 - 1 and spans several launches") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  const std::uint32_t last = 0xffffffffu;
  Bytes message = with_candidate(random_message(20, 1), last);
  auto result = hash::sha256_search(dev, message, last - 99, 100, openssl_sha256(message), 1);
  CHECK(result.nonces == std::vector<std::uint32_t>{last});
  // A launch lays its workgroups out in rows of 32768 (2^23 candidates) and covers 2^26
  // candidates: winners just past the first row and just past the first launch are found once.
  if (dev.info().backend == "vulkan") {
    const std::uint32_t row = sprig::detail::max_workgroups_per_row * hash::detail::sha256_search_workgroup;
    const std::uint32_t launch = hash::detail::sha256_search_candidates_per_launch;
    for (std::uint32_t winner : {row + 5, launch + 5}) {
      Bytes near_edge = with_candidate(random_message(9, 2), winner);
      auto across = hash::sha256_search(dev, near_edge, 0, std::uint64_t(winner) + 100, openssl_sha256(near_edge));
      CHECK(across.nonces == std::vector<std::uint32_t>{winner});
      CHECK(across.found == 1);
    }
  }
}

TEST_CASE("the SHA-256 search rejects bad arguments, naming them") {
  sprig::Device& dev = test::device(SPRIG_BACKEND);
  Bytes digest(32, 0);
  CHECK_THROWS_WITH(hash::sha256_search(dev, Bytes(3), 0, 1, digest), Catch::Contains("4 to 55 bytes") &&
                                                                          Catch::Contains("not 3"));
  CHECK_THROWS_WITH(hash::sha256_search(dev, Bytes(56), 0, 1, digest), Catch::Contains("not 56"));
  CHECK_THROWS_WITH(hash::sha256_search(dev, Bytes(8), 0, 1, Bytes(31)), Catch::Contains("32 bytes, not 31"));
  CHECK_THROWS_WITH(hash::sha256_search(dev, Bytes(8), 0, 1, digest, 0), Catch::Contains("capacity"));
  CHECK_THROWS_WITH(hash::sha256_search(dev, Bytes(8), 0xfffffff0u, 17, digest), Catch::Contains("passes 2^32 - 1"));
  auto block = dev.upload(std::vector<std::uint32_t>(15, 0));
  auto words = dev.upload(std::vector<std::uint32_t>(8, 0));
  auto seq = dev.sequence();
  CHECK_THROWS_WITH(hash::sha256_search(seq, block, 8, 0, 1, words, words, words), Catch::Contains("not 16"));
}

TEST_CASE("the searches add on the multiply-add pipe on NVIDIA's driver only, unless SPRIG_HASH_ADDS says otherwise") {
  DeviceInfo nvidia, lavapipe;
  nvidia.driver = DriverId::NvidiaProprietary;
  lavapipe.driver = DriverId::MesaLlvmpipe;
  CHECK(hash::hash_add_form(nvidia).multiply_add);
  CHECK_FALSE(hash::hash_add_form(lavapipe).multiply_add);
  CHECK(hash::hash_add_form(nvidia).key() != hash::hash_add_form(lavapipe).key());  // separate cached kernels
  {
    ScopedHashAdds plain("plain");
    CHECK_FALSE(hash::hash_add_form(nvidia).multiply_add);
  }
  {
    ScopedHashAdds multiply("multiply-add");
    CHECK(hash::hash_add_form(lavapipe).multiply_add);
  }
  ScopedHashAdds wrong("fused");
  CHECK_THROWS_WITH(hash::hash_add_form(lavapipe), Catch::Contains("SPRIG_HASH_ADDS=fused") &&
                                                       Catch::Contains("\"plain\" or \"multiply-add\""));
}
