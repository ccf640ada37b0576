#include "proof_packing.hpp"

#include <stdexcept>
#include <string>

#include "bits.hpp"
#include "params.hpp"

namespace pos_ref {

std::vector<std::uint8_t> pack_proof(int k, const ProofXs& xs) {
  check_k(k);
  std::vector<std::uint8_t> proof(proof_bytes(k), 0);
  for (std::size_t i = 0; i < 64; ++i) {
    if (xs[i] >> k) throw std::invalid_argument("pack_proof: x[" + std::to_string(i) + "] has more than K bits");
    put_bits(proof, i * std::size_t(k), xs[i], k);
  }
  return proof;
}

ProofXs unpack_proof(int k, std::span<const std::uint8_t> proof) {
  check_k(k);
  if (proof.size() != proof_bytes(k))
    throw std::invalid_argument("unpack_proof: a K = " + std::to_string(k) + " proof has " +
                                std::to_string(proof_bytes(k)) + " bytes, not " + std::to_string(proof.size()));
  ProofXs xs;
  for (std::size_t i = 0; i < 64; ++i) xs[i] = std::uint32_t(get_bits(proof, i * std::size_t(k), k));
  return xs;
}

}  // namespace pos_ref
