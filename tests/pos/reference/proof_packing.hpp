// A proof as bytes: its 64 x values as K-bit fields, MSB-first and back to back (8·K bytes,
// 160 at K = 20), as Subspace and Abundance store and verify them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace pos_ref {

using ProofXs = std::array<std::uint32_t, 64>;

// Throws for K out of range or an x wider than K bits.
std::vector<std::uint8_t> pack_proof(int k, const ProofXs& xs);
// Throws for K out of range or a proof that is not 8·K bytes.
ProofXs unpack_proof(int k, std::span<const std::uint8_t> proof);

}  // namespace pos_ref
