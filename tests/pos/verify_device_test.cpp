// Batched proof verification on the device (stdlib/include/sprig/stdlib/pos/verify.hpp)
// against the reference's verify_proof, on both backends: every proof of a plot is accepted,
// tampered proofs and wrong challenges are rejected.
#include <map>
#include <string_view>

#include <catch2/catch.hpp>

#include "backends.hpp"
#include "pos_reference.hpp"
#include "pos_test_support.hpp"
#include "sprig/stdlib/pos/pos.hpp"
#include "sprig/stdlib/pos/verify.hpp"

namespace {

using sprig::test::Backend;

pos_ref::Seed verify_seed(std::uint32_t i) {
  pos_ref::Seed seed{};
  for (std::size_t b = 0; b < seed.size(); ++b) seed[b] = std::uint8_t(b * 3 + i * 71 + 9);
  return seed;
}

sprig::pos::Seed to_device(const pos_ref::Seed& s) {
  sprig::pos::Seed out{};
  std::copy(s.begin(), s.end(), out.begin());
  return out;
}

const pos_ref::PosProofs& reference_proofs(const pos_ref::Seed& seed, int k) {
  static std::map<std::pair<pos_ref::Seed, int>, pos_ref::PosProofs> cache;
  auto key = std::make_pair(seed, k);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, pos_ref::create_proofs(pos_ref::build_tables(seed, k, pos_ref::Mode::Abundance))).first;
  return it->second;
}

// The first `n` proofs of a plot (all if n is 0), with their s-buckets as challenges.
struct Batch {
  std::vector<std::uint32_t> challenges;
  std::vector<std::uint8_t> proofs;
};

Batch first_proofs(const pos_ref::PosProofs& p, std::size_t n) {
  n = n == 0 ? p.count() : std::min(n, p.count());
  Batch b;
  b.challenges.assign(p.s_buckets.begin(), p.s_buckets.begin() + std::ptrdiff_t(n));
  b.proofs.assign(p.proofs.begin(), p.proofs.begin() + std::ptrdiff_t(n * pos_ref::proof_bytes(p.k)));
  return b;
}

// Sets x number `index` of a packed proof (MSB-first, K bits each).
void set_x(std::vector<std::uint8_t>& proof, std::size_t base, int k, std::size_t index, std::uint32_t x) {
  for (int bit = 0; bit < k; ++bit) {
    const std::size_t at = index * std::size_t(k) + std::size_t(bit);
    const std::uint8_t mask = std::uint8_t(0x80u >> (at % 8));
    const bool on = (x >> (k - 1 - bit)) & 1;
    std::uint8_t& byte = proof[base + at / 8];
    byte = on ? std::uint8_t(byte | mask) : std::uint8_t(byte & ~mask);
  }
}

std::uint32_t get_x(const std::vector<std::uint8_t>& proof, std::size_t base, int k, std::size_t index) {
  std::uint32_t x = 0;
  for (int bit = 0; bit < k; ++bit) {
    const std::size_t at = index * std::size_t(k) + std::size_t(bit);
    x = (x << 1) | ((proof[base + at / 8] >> (7 - at % 8)) & 1u);
  }
  return x;
}

}  // namespace

TEST_CASE("device verifier accepts every proof of a plot and agrees with the reference", "[pos][device]") {
  Backend backend = SPRIG_BACKEND;
  sprig::Device& dev = sprig::test::device(backend);
  // The simulator checks the first 64 proofs of each plot; Vulkan checks all of them.
  const std::size_t n = backend == Backend::Vulkan ? 0 : 64;
  for (int k : {15, 16}) {
    INFO("K = " << k);
    const pos_ref::Seed seed = verify_seed(std::uint32_t(k));
    const Batch b = first_proofs(reference_proofs(seed, k), n);
    sprig::pos::Verifier verifier(dev, k);
    std::vector<std::uint8_t> ok = verifier.verify(to_device(seed), b.challenges, b.proofs);
    REQUIRE(ok.size() == b.challenges.size());
    std::size_t accepted = 0;
    for (std::size_t i = 0; i < ok.size(); ++i) {
      const std::size_t bytes = pos_ref::proof_bytes(k);
      std::span<const std::uint8_t> proof(b.proofs.data() + i * bytes, bytes);
      INFO("proof " << i << ", s-bucket " << b.challenges[i]);
      REQUIRE(bool(ok[i]) == pos_ref::verify_proof(seed, k, b.challenges[i], proof));
      accepted += ok[i];
    }
    REQUIRE(accepted == ok.size());
  }
}

TEST_CASE("device verifier rejects a flipped x, a swapped pair and a wrong challenge", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const int k = 15;
  const std::size_t bytes = pos_ref::proof_bytes(k);
  const pos_ref::Seed seed = verify_seed(15);
  const Batch good = first_proofs(reference_proofs(seed, k), 8);
  REQUIRE(good.challenges.size() == 8);

  // Eight variants of eight proofs: 0 unchanged, 1 x[5] with its low bit flipped, 2 x[0] and
  // x[1] swapped (table-2 pair order), 3 the two table-7 halves swapped, 4 challenge + 1,
  // 5 another seed's challenge space (challenge of the next proof), 6 x[63] flipped, 7 unchanged.
  Batch b = good;
  set_x(b.proofs, 1 * bytes, k, 5, get_x(good.proofs, 1 * bytes, k, 5) ^ 1u);
  {
    const std::uint32_t x0 = get_x(good.proofs, 2 * bytes, k, 0), x1 = get_x(good.proofs, 2 * bytes, k, 1);
    set_x(b.proofs, 2 * bytes, k, 0, x1);
    set_x(b.proofs, 2 * bytes, k, 1, x0);
  }
  for (std::size_t j = 0; j < 32; ++j) {
    set_x(b.proofs, 3 * bytes, k, j, get_x(good.proofs, 3 * bytes, k, j + 32));
    set_x(b.proofs, 3 * bytes, k, j + 32, get_x(good.proofs, 3 * bytes, k, j));
  }
  b.challenges[4] += 1;
  b.challenges[5] = good.challenges[6];
  set_x(b.proofs, 6 * bytes, k, 63, get_x(good.proofs, 6 * bytes, k, 63) ^ 0x4000u);

  sprig::pos::Verifier verifier(dev, k);
  const std::vector<std::uint8_t> ok = verifier.verify(to_device(seed), b.challenges, b.proofs);
  REQUIRE(ok == std::vector<std::uint8_t>{1, 0, 0, 0, 0, 0, 0, 1});
  for (std::size_t i = 0; i < 8; ++i) {
    std::span<const std::uint8_t> proof(b.proofs.data() + i * bytes, bytes);
    REQUIRE(bool(ok[i]) == pos_ref::verify_proof(seed, k, b.challenges[i], proof));
  }
  // The right proofs under another seed.
  const std::vector<std::uint8_t> other = verifier.verify(to_device(verify_seed(99)), good.challenges, good.proofs);
  REQUIRE(other == std::vector<std::uint8_t>(8, 0));
}

// K = 26, whose ys fill a word (the verifier marks a failed pair apart from y): two proofs of
// a GPU plot, the reference's verdicts on them altered.
TEST_CASE("device verifier accepts K = 26 proofs of a GPU plot and rejects them altered", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  const int k = 26;
  std::vector<std::uint8_t> proofs = pos_test::from_hex(pos_test::k26_proof_s0);
  const std::vector<std::uint8_t> s1 = pos_test::from_hex(pos_test::k26_proof_s1);
  proofs.insert(proofs.end(), s1.begin(), s1.end());
  proofs.insert(proofs.end(), s1.begin(), s1.end());  // s-bucket 1's proof for challenge 0
  proofs.insert(proofs.end(), s1.begin(), s1.end());
  const std::size_t bytes = pos_ref::proof_bytes(k);
  proofs[3 * bytes + 100] ^= 0x08;  // one bit of an x in the middle
  const std::vector<std::uint32_t> challenges{0, 1, 0, 1};
  sprig::pos::Verifier verifier(dev, k);
  const std::vector<std::uint8_t> ok = verifier.verify(to_device(pos_test::k26_record_seed), challenges, proofs);
  REQUIRE(ok == std::vector<std::uint8_t>{1, 1, 0, 0});
  for (std::size_t i = 0; i < challenges.size(); ++i)
    REQUIRE(bool(ok[i]) == pos_ref::verify_proof(pos_test::k26_record_seed, k, challenges[i],
                                                 std::span<const std::uint8_t>(proofs.data() + i * bytes, bytes)));
}

// K = 27 and 28, whose ys take 33 and 34 bits (two words a y on the device): two proofs of a
// GPU plot, each also for the other's s-bucket, and one with an x's bit flipped.
TEST_CASE("device verifier accepts K = 27 and 28 proofs of a GPU plot and rejects them altered", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  struct Vectors {
    int k;
    std::string_view first, second;
    std::uint32_t first_bucket, second_bucket;
  };
  const Vectors vectors = GENERATE(
      Vectors{27, pos_test::k27_proof_s3, pos_test::k27_proof_s4, pos_test::k27_proof_s3_bucket,
              pos_test::k27_proof_s4_bucket},
      Vectors{28, pos_test::k28_proof_s3, pos_test::k28_proof_s6, pos_test::k28_proof_s3_bucket,
              pos_test::k28_proof_s6_bucket});
  const int k = vectors.k;
  CAPTURE(k);
  const std::vector<std::uint8_t> first = pos_test::from_hex(vectors.first), second = pos_test::from_hex(vectors.second);
  std::vector<std::uint8_t> proofs;
  for (const auto* proof : {&first, &second, &first, &second, &second})
    proofs.insert(proofs.end(), proof->begin(), proof->end());
  const std::size_t bytes = pos_ref::proof_bytes(k);
  proofs[4 * bytes + 57] ^= 0x10;  // one bit of an x in the middle
  const std::uint32_t b1 = vectors.first_bucket, b2 = vectors.second_bucket;
  const std::vector<std::uint32_t> challenges{b1, b2, b2, b1, b2};
  sprig::pos::Verifier verifier(dev, k);
  const std::vector<std::uint8_t> ok = verifier.verify(to_device(pos_test::k26_record_seed), challenges, proofs);
  REQUIRE(ok == std::vector<std::uint8_t>{1, 1, 0, 0, 0});
  for (std::size_t i = 0; i < challenges.size(); ++i)
    REQUIRE(bool(ok[i]) == pos_ref::verify_proof(pos_test::k26_record_seed, k, challenges[i],
                                                 std::span<const std::uint8_t>(proofs.data() + i * bytes, bytes)));
  // The same proofs under another seed.
  const std::vector<std::uint8_t> other = verifier.verify(to_device(verify_seed(7)), challenges, proofs);
  REQUIRE(other == std::vector<std::uint8_t>(5, 0));
}

TEST_CASE("device verifier rejects bad arguments", "[pos][device]") {
  sprig::Device& dev = sprig::test::device(SPRIG_BACKEND);
  REQUIRE_THROWS_WITH(sprig::pos::Verifier(dev, 29), Catch::Contains("K = 29 is out of range"));
  sprig::pos::Verifier verifier(dev, 15);
  const std::vector<std::uint32_t> challenges{1, 2};
  REQUIRE_THROWS_WITH(verifier.verify(sprig::pos::Seed{}, challenges, std::vector<std::uint8_t>(100)),
                      Catch::Contains("a K = 15 proof is 120 bytes"));
}
