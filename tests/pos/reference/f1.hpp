// F1, the y values of table 1 (pos-spec §1.2): partial(x) = keystream bits [K·x, K·x + K) of
// ChaCha8 keyed by the seed, and y = (partial(x) << 6) | (x >> (K - 6)), K + 6 bits (a u64:
// more than 32 from K = 27).
#pragma once

#include <cstdint>
#include <vector>

#include "params.hpp"

namespace pos_ref {

// y of one x (what a verifier computes; reads only the one or two keystream blocks needed).
std::uint64_t f1(const Seed& seed, int k, std::uint32_t x);

// y of every x = 0 .. 2^K - 1, indexed by x.
std::vector<std::uint64_t> f1_all(const Seed& seed, int k);

}  // namespace pos_ref
