// Verification: the published proofs are accepted, tampered ones and wrong challenges are
// rejected, and bad arguments throw.
#include <string_view>

#include <catch2/catch.hpp>

#include "pos_test_support.hpp"

using namespace pos_ref;

namespace {

std::vector<std::uint8_t> published_650() { return pos_test::from_hex(pos_test::subspace_proof_650); }

}  // namespace

TEST_CASE("verification accepts the published Subspace K = 20 proofs") {
  const auto& seed = pos_test::subspace_test_seed;
  for (auto [index, hex] : {std::pair{600426542u, pos_test::subspace_proof_600426542},
                            std::pair{1011u, pos_test::subspace_proof_1011}, std::pair{650u, pos_test::subspace_proof_650}}) {
    auto proof = pos_test::from_hex(hex);
    INFO("challenge index " << index);
    CHECK(verify_proof(seed, 20, subspace_challenge_bits(20, index), proof));
    CHECK_FALSE(verify_proof(seed, 20, subspace_challenge_bits(20, index) + 1, proof));
  }
}

TEST_CASE("verification accepts every Abundance K = 20 proof for its s-bucket") {
  const PosProofs& proofs = pos_test::k20_proofs(Mode::Abundance);
  std::size_t accepted = 0;
  for (std::size_t i = 0; i < proofs.count(); ++i)
    accepted += verify_proof(pos_test::subspace_test_seed, 20, proofs.s_buckets[i], proofs.proof(i));
  CHECK(accepted == 32768u);
}

TEST_CASE("verification accepts two K = 26 proofs of a GPU plot and rejects them altered") {
  const auto s0 = pos_test::from_hex(pos_test::k26_proof_s0), s1 = pos_test::from_hex(pos_test::k26_proof_s1);
  REQUIRE(s0.size() == proof_bytes(26));
  CHECK(verify_proof(pos_test::k26_record_seed, 26, 0, s0));
  CHECK(verify_proof(pos_test::k26_record_seed, 26, 1, s1));
  CHECK_FALSE(verify_proof(pos_test::k26_record_seed, 26, 1, s0));
  auto xs = unpack_proof(26, s0);
  xs[40] ^= 1u << 25;  // the top bit of an x
  CHECK_FALSE(verify_proof(pos_test::k26_record_seed, 26, 0, pack_proof(26, xs)));
}

// ys of 33 and 34 bits: table 1's ys of these proofs pass 2^32 (K = 27) and 2^33 (K = 28),
// so they check the wide path, not one a word would pass.
TEST_CASE("verification accepts two K = 27 and two K = 28 proofs of GPU plots and rejects them altered") {
  struct Vectors {
    int k;
    std::string_view first, second;
    std::uint32_t first_bucket, second_bucket;
  };
  const Vectors v = GENERATE(Vectors{27, pos_test::k27_proof_s3, pos_test::k27_proof_s4,
                                     pos_test::k27_proof_s3_bucket, pos_test::k27_proof_s4_bucket},
                             Vectors{28, pos_test::k28_proof_s3, pos_test::k28_proof_s6,
                                     pos_test::k28_proof_s3_bucket, pos_test::k28_proof_s6_bucket});
  CAPTURE(v.k);
  const auto first = pos_test::from_hex(v.first), second = pos_test::from_hex(v.second);
  REQUIRE(first.size() == proof_bytes(v.k));
  const Seed& seed = pos_test::k26_record_seed;
  CHECK(verify_proof(seed, v.k, v.first_bucket, first));
  CHECK(verify_proof(seed, v.k, v.second_bucket, second));
  CHECK_FALSE(verify_proof(seed, v.k, v.second_bucket, first));
  const auto xs = unpack_proof(v.k, first);
  std::size_t top_bit_set = 0;  // y's bit K + 5: 2^32 at K = 27, 2^33 at K = 28
  for (std::uint32_t x : xs) top_bit_set += f1(seed, v.k, x) >> (v.k + 5);
  CHECK(top_bit_set > 0);
  auto flipped = xs;
  flipped[40] ^= 1u << (v.k - 1);  // the top bit of an x
  CHECK_FALSE(verify_proof(seed, v.k, v.first_bucket, pack_proof(v.k, flipped)));
}

TEST_CASE("verification rejects a proof with one x flipped") {
  auto xs = unpack_proof(20, published_650());
  for (int i : {0, 17, 63}) {
    auto tampered = xs;
    tampered[i] ^= 1;
    INFO("x[" << i << "]");
    CHECK_FALSE(proof_y7(pos_test::subspace_test_seed, 20, pack_proof(20, tampered)));
  }
}

TEST_CASE("verification rejects a proof with a pair swapped") {
  auto xs = unpack_proof(20, published_650());
  std::swap(xs[10], xs[11]);  // the right entry comes first: the bucket adjacency fails
  CHECK_FALSE(proof_y7(pos_test::subspace_test_seed, 20, pack_proof(20, xs)));
  xs = unpack_proof(20, published_650());
  std::swap_ranges(xs.begin(), xs.begin() + 32, xs.begin() + 32);  // the two halves of table 7's pair
  CHECK_FALSE(proof_y7(pos_test::subspace_test_seed, 20, pack_proof(20, xs)));
}

TEST_CASE("verification rejects the proof under another seed") {
  Seed seed = pos_test::subspace_test_seed;
  seed[31] ^= 1;
  CHECK_FALSE(verify_proof(seed, 20, subspace_challenge_bits(20, 650), published_650()));
}

TEST_CASE("verification rejects K out of range and proofs of the wrong length") {
  auto proof = published_650();
  CHECK_THROWS_WITH(verify_proof(pos_test::subspace_test_seed, 29, 0, proof), Catch::Contains("K = 29 is out of range"));
  CHECK_THROWS_WITH(verify_proof(pos_test::subspace_test_seed, 21, 0, proof),
                    Catch::Contains("a K = 21 proof has 168 bytes, not 160"));
  proof.pop_back();
  CHECK_THROWS_AS(verify_proof(pos_test::subspace_test_seed, 20, 0, proof), std::invalid_argument);
}
