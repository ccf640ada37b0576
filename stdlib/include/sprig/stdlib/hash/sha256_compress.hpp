// The SHA-256 compression function (FIPS 180-4, section 6.2.2) as a device function: one
// 64-byte block folded into the 8-word chaining state. Unrolled at trace time (64 rounds,
// the message schedule as pure values), so a kernel pays no loop or array indexing for it.
//
// Words are SHA-256's own big-endian words: state[0] is H0, block[0] is message bytes 0..3
// with byte 0 in the high bits (byte_swap of the little-endian buffer word).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/hash/hash_adds.hpp"

namespace sprig::hash {

using Sha256State = std::array<UInt, 8>;
using Sha256Block = std::array<UInt, 16>;

// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of
// the first 64 primes.
inline constexpr std::array<std::uint32_t, 64> sha256_round_constants{
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

// FIPS 180-4 section 5.3.3: the first 32 bits of the fractional parts of the square roots of
// the first 8 primes.
inline constexpr std::array<std::uint32_t, 8> sha256_initial_words{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

inline Sha256State sha256_initial_state() {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return Sha256State{UInt(sha256_initial_words[I])...};
  }
  (std::make_index_sequence<8>{});
}

// The message schedule W0..W63 of a block; `add` adds (hash_adds.hpp).
inline std::vector<UInt> sha256_schedule(const Sha256Block& block, const HashAdder& add = {}) {
  std::vector<UInt> w(block.begin(), block.end());
  w.reserve(64);
  for (int t = 16; t < 64; ++t) {
    UInt s0 = rotate_right(w[t - 15], 7u) ^ rotate_right(w[t - 15], 18u) ^ (w[t - 15] >> 3u);
    UInt s1 = rotate_right(w[t - 2], 17u) ^ rotate_right(w[t - 2], 19u) ^ (w[t - 2] >> 10u);
    w.push_back(add(add(add(w[t - 16], w[t - 7]), s0), s1));
  }
  return w;
}

// Rounds first .. last - 1 on the working variables a..h (as a state), with the schedule
// `w`. A search can so stop early, or start from rounds done once for every candidate.
inline Sha256State sha256_rounds(const Sha256State& working, const std::vector<UInt>& w, int first, int last,
                                 const HashAdder& add = {}) {
  UInt a = working[0], b = working[1], c = working[2], d = working[3], e = working[4], f = working[5],
       g = working[6], h = working[7];
  for (int t = first; t < last; ++t) {
    UInt big_s1 = rotate_right(e, 6u) ^ rotate_right(e, 11u) ^ rotate_right(e, 25u);
    UInt choose = g ^ (e & (f ^ g));  // Ch(e, f, g) with one operation fewer
    UInt t1 = add(add(add(h, w[t] + sha256_round_constants[t]), big_s1), choose);
    UInt big_s0 = rotate_right(a, 2u) ^ rotate_right(a, 13u) ^ rotate_right(a, 22u);
    UInt majority = (a & b) | (c & (a | b));  // Maj(a, b, c)
    h = g;
    g = f;
    f = e;
    e = add(d, t1);
    d = c;
    c = b;
    b = a;
    a = add(add(big_s0, t1), majority);
  }
  return {a, b, c, d, e, f, g, h};
}

// The feed-forward: the chaining state plus the working variables after round 63.
inline Sha256State sha256_feed_forward(const Sha256State& state, const Sha256State& working) {
  return {state[0] + working[0], state[1] + working[1], state[2] + working[2], state[3] + working[3],
          state[4] + working[4], state[5] + working[5], state[6] + working[6], state[7] + working[7]};
}

// `state` after absorbing one block.
inline Sha256State sha256_compress(const Sha256State& state, const Sha256Block& block, const HashAdder& add = {}) {
  return sha256_feed_forward(state, sha256_rounds(state, sha256_schedule(block, add), 0, 64, add));
}

}  // namespace sprig::hash
