// Verification of a proof (pos-spec §1.7): F1 of the 64 x values, then for tables 2..7 pairs
// (2i, 2i + 1) must match — target and bucket adjacency, any failure rejects — and feed
// compute_fn; the proof is valid when the first K bits of table 7's y equal the challenge.
// Abundance's challenge is the s-bucket index; Subspace's is subspace_challenge_bits().
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "params.hpp"

namespace pos_ref {

// Table 7's y (K + 6 bits) of the proof, or nullopt if some pair does not match. Throws for
// K out of range or a proof of the wrong length.
std::optional<std::uint64_t> proof_y7(const Seed& seed, int k, std::span<const std::uint8_t> proof);

// proof_y7 exists and (y7 >> 6) == challenge.
bool verify_proof(const Seed& seed, int k, std::uint32_t challenge, std::span<const std::uint8_t> proof);

}  // namespace pos_ref
