// SHA-256 comes from OpenSSL: the reference's oracle must not share code with the DSL's.
#include "quality.hpp"

#include <openssl/sha.h>

#include <vector>

#include "bits.hpp"
#include "proof_packing.hpp"
#include "verify.hpp"

namespace pos_ref {

namespace {

Quality quality_of(int k, const Challenge& challenge, std::uint32_t x_left, std::uint32_t x_right) {
  std::vector<std::uint8_t> input(challenge.begin(), challenge.end());
  std::vector<std::uint8_t> xs(std::size_t(2 * k + 7) / 8, 0);
  put_bits(xs, 0, x_left, k);
  put_bits(xs, std::size_t(k), x_right, k);
  input.insert(input.end(), xs.begin(), xs.end());
  Quality q;
  SHA256(input.data(), input.size(), q.data());
  return q;
}

}  // namespace

std::uint32_t challenge_bits(int k, const Challenge& challenge) {
  check_k(k);
  std::uint32_t first = std::uint32_t(challenge[0]) << 24 | std::uint32_t(challenge[1]) << 16 |
                        std::uint32_t(challenge[2]) << 8 | challenge[3];
  return first >> (32 - k);
}

Quality proof_quality(int k, const Challenge& challenge, std::span<const std::uint8_t> proof) {
  ProofXs xs = unpack_proof(k, proof);
  unsigned q = challenge[31] & 0x1f;
  return quality_of(k, challenge, xs[2 * q], xs[2 * q + 1]);
}

std::optional<Quality> verify_quality(const Seed& seed, int k, const Challenge& challenge,
                                      std::span<const std::uint8_t> proof) {
  if (!verify_proof(seed, k, challenge_bits(k, challenge), proof)) return std::nullopt;
  return proof_quality(k, challenge, proof);
}

Quality find_quality(const Tables& tables, std::uint32_t t7_position, const Challenge& challenge) {
  unsigned last5 = challenge[31] & 0x1f;
  Pair pair = tables.table[7].parents.at(t7_position);
  for (int t = 6; t >= 2; --t) pair = tables.table[t].parents.at(pair[(last5 >> (t - 2)) & 1]);
  const auto& xs = tables.table[1].xs;
  return quality_of(tables.k, challenge, xs.at(pair[0]), xs.at(pair[1]));
}

}  // namespace pos_ref
