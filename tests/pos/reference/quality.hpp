// Quality strings (pos-spec §1.9, Chia's find_quality / verify; Subspace's full-chiapos
// feature): SHA-256(challenge ‖ x_L ‖ x_R) for x pair q = challenge[31] & 31 of the proof.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "params.hpp"
#include "tables.hpp"

namespace pos_ref {

using Challenge = std::array<std::uint8_t, 32>;
using Quality = std::array<std::uint8_t, 32>;

// The first K bits of the challenge, big-endian: what table 7's y >> 6 must equal.
std::uint32_t challenge_bits(int k, const Challenge& challenge);

// Quality from a proof's x values (does not verify the proof).
Quality proof_quality(int k, const Challenge& challenge, std::span<const std::uint8_t> proof);

// The quality if the proof is valid for the challenge's first K bits, else nullopt.
std::optional<Quality> verify_quality(const Seed& seed, int k, const Challenge& challenge,
                                      std::span<const std::uint8_t> proof);

// Quality by walking the tables down from table-7 entry `t7_position`: at table t (6..2) the
// left position if bit t - 2 of challenge[31] is 0, else the right one.
Quality find_quality(const Tables& tables, std::uint32_t t7_position, const Challenge& challenge);

}  // namespace pos_ref
