// Proof search, expansion and PosProofs: Subspace's K = 20 proofs (tables/tests.rs), the
// Abundance s-buckets of src/chia/tests.rs, and the published K = 20 Abundance proof counts.
#include <catch2/catch.hpp>

#include <bit>

#include "pos_test_support.hpp"

using namespace pos_ref;

TEST_CASE("Subspace's challenge index is byte-swapped before its first K bits are taken") {
  CHECK(subspace_challenge_bits(20, 600426542) == 191628u);
  CHECK(subspace_challenge_bits(20, 1011) == 995376u);
  CHECK(subspace_challenge_bits(20, 650) == 565280u);
}

TEST_CASE("Subspace K = 20 find_proof for challenge 600426542 is the published proof") {
  auto proof = subspace_find_proof(pos_test::k20_tables(Mode::Subspace), 600426542);
  REQUIRE(proof);
  CHECK(pos_test::hex(*proof) == pos_test::subspace_proof_600426542);
}

TEST_CASE("Subspace K = 20 find_proof for challenge 1011 is the published proof (y tie-break)") {
  auto proof = subspace_find_proof(pos_test::k20_tables(Mode::Subspace), 1011);
  REQUIRE(proof);
  CHECK(pos_test::hex(*proof) == pos_test::subspace_proof_1011);
}

TEST_CASE("Subspace K = 20 find_proof for challenge 650 is the published proof (three right duplicates)") {
  auto proof = subspace_find_proof(pos_test::k20_tables(Mode::Subspace), 650);
  REQUIRE(proof);
  CHECK(pos_test::hex(*proof) == pos_test::subspace_proof_650);
}

// A table 7 of K = 27 is too big to build in a test; its search needs only the sorted ys. The
// challenge's K bits shifted past y's 6 extra bits pass 2^32, so a 32-bit shift finds nothing.
TEST_CASE("Subspace's find_t7 at K = 27 finds the first y whose top K bits are the challenge's") {
  Tables tables;
  tables.k = 27;
  tables.mode = Mode::Subspace;
  const std::uint64_t fk = subspace_challenge_bits(27, 0xff);  // byte-swapped: 0xff000000 >> 5
  REQUIRE(fk == 0x7f80000u);
  tables.table[7].ys = {100, (fk << 6) - 1, (fk << 6) | 3, (fk << 6) | 9, (fk + 1) << 6, (1ull << 33) - 1};
  REQUIRE(tables.table[7].ys[2] > (1ull << 32));
  CHECK(subspace_find_t7(tables, 0xff) == std::optional<std::uint32_t>(2));
  CHECK_FALSE(subspace_find_t7(tables, 0xfe));  // 0xfe000000 >> 5: no y has it
  CHECK(subspace_find_t7(tables, 0xffffffff) == std::optional<std::uint32_t>(5));  // the largest y
}

TEST_CASE("Subspace K = 20 has no proof for challenge 1232460437") {
  CHECK_FALSE(subspace_find_proof(pos_test::k20_tables(Mode::Subspace), 1232460437));
}

TEST_CASE("Abundance K = 20 s-bucket 15651 has no proof and 31500 has a valid one") {
  const PosProofs& proofs = pos_test::k20_proofs(Mode::Abundance);
  CHECK_FALSE(proofs.found(15651));
  REQUIRE(proofs.found(31500));
  auto it = std::lower_bound(proofs.s_buckets.begin(), proofs.s_buckets.end(), 31500u);
  REQUIRE(*it == 31500u);
  CHECK(verify_proof(pos_test::subspace_test_seed, 20, 31500, proofs.proof(std::size_t(it - proofs.s_buckets.begin()))));
}

TEST_CASE("Abundance K = 20 proves 38179 s-buckets and keeps the first 32768, up to s-bucket 56210") {
  const Tables& tables = pos_test::k20_tables(Mode::Abundance);
  auto targets = s_bucket_targets(tables);
  CHECK(std::count_if(targets.begin(), targets.end(), [](const ProofTarget& t) { return t.found; }) == 38179);
  const PosProofs& proofs = pos_test::k20_proofs(Mode::Abundance);
  CHECK(proofs.count() == 32768u);
  CHECK(proofs.proofs.size() == 32768u * 160u);
  CHECK(proofs.s_buckets.back() == 56210u);
  std::size_t bits = 0;
  for (auto byte : proofs.found_proofs) bits += std::size_t(std::popcount(byte));
  CHECK(bits == 32768u);
  for (std::uint32_t s = 56211; s < num_s_buckets; ++s) REQUIRE_FALSE(proofs.found(s));  // the cut-off
  CHECK(targets[56211].found != proofs.found(56211));  // ... drops s-buckets that do have a target
}

TEST_CASE("the Abundance target of an s-bucket is the first table-7 match in order with that s") {
  const Tables& tables = pos_test::k20_tables(Mode::Abundance);
  const Table& t7 = tables.table[7];
  auto targets = s_bucket_targets(tables);
  std::vector<bool> seen(num_s_buckets);
  std::size_t checked = 0;
  for (std::uint32_t b = 0; b < t7.pair_sizes.size(); ++b)
    for (std::uint32_t i = 0; i < t7.pair_sizes[b]; ++i) {
      std::uint32_t p = b * 288 + i;
      std::uint64_t s = t7.ys[p] >> 6;
      if (s >= num_s_buckets) continue;
      REQUIRE(targets[s].found);
      if (!seen[s]) {
        REQUIRE(targets[s].t7_position == p);
        REQUIRE(targets[s].t6_pair == t7.parents[p]);
        ++checked;
      }
      seen[s] = true;
    }
  CHECK(checked == 38179u);
}

TEST_CASE("a proof expands depth-first, left before right") {
  const Tables& t = pos_test::k20_tables(Mode::Abundance);
  const PosProofs& proofs = pos_test::k20_proofs(Mode::Abundance);
  auto targets = s_bucket_targets(t);
  std::uint32_t s = proofs.s_buckets[0];
  ProofXs xs = expand_proof(t, targets[s].t7_position);
  // x[0] follows the left parent at every level; x[63] the right one.
  std::uint32_t left = targets[s].t7_position, right = left;
  for (int table = 7; table >= 2; --table) left = t.table[table].parents[left][0], right = t.table[table].parents[right][1];
  CHECK(xs[0] == left);
  CHECK(xs[63] == right);
  CHECK(unpack_proof(20, proofs.proof(0)) == xs);
}

TEST_CASE("every proof of small plots verifies, in both modes") {
  for (Mode mode : {Mode::Abundance, Mode::Subspace}) {
    for (int k : {15, 16}) {
      Seed seed = pos_test::subspace_test_seed;
      seed[0] = std::uint8_t(k);
      Tables tables = build_tables(seed, k, mode);
      PosProofs proofs = create_proofs(tables);
      INFO(mode_name(mode) << " K = " << k << ", " << proofs.count() << " proofs");
      CHECK(proofs.count() > 1000u);
      for (std::size_t i = 0; i < proofs.count(); i += 7) {
        std::uint32_t s = proofs.s_buckets[i];
        std::uint32_t challenge = mode == Mode::Abundance ? s : subspace_challenge_bits(k, s);
        REQUIRE(verify_proof(seed, k, challenge, proofs.proof(i)));
      }
    }
  }
}

TEST_CASE("PosProofs packs proofs of 8K bytes for K = 15") {
  Tables tables = build_tables(pos_test::subspace_test_seed, 15, Mode::Abundance);
  PosProofs proofs = create_proofs(tables);
  CHECK(proofs.proofs.size() == proofs.count() * 120u);
  CHECK(proofs.s_buckets.back() < (1u << 15));  // y7 >> 6 has only 15 bits at K = 15
}
