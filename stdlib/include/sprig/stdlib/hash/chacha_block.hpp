// The ChaCha block function (Bernstein 2008; RFC 8439 section 2.3) as a device function,
// for any even round count: ChaCha8, ChaCha12, ChaCha20. Unrolled at trace time.
//
// The 16 input words are the constants, the key, then counter and nonce in one of two
// layouts: IETF (RFC 8439: a 32-bit block counter, a 96-bit nonce) or the original one (a
// 64-bit counter, a 64-bit nonce). Key and nonce words are the little-endian words of their
// bytes, as byte_words.hpp stores them; the output words are keystream bytes in the same order.
#pragma once

#include <array>
#include <cstdint>

#include "sprig/dsl.hpp"

namespace sprig::hash {

using ChachaWords = std::array<UInt, 16>;
using ChachaKey = std::array<UInt, 8>;

enum class ChachaLayout {
  Ietf,      // words 12: counter, 13..15: nonce (12 bytes)
  Original,  // words 12..13: counter (low, high), 14..15: nonce (8 bytes)
};

// "expand 32-byte k" as little-endian words.
inline constexpr std::array<std::uint32_t, 4> chacha_constants{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

// ChaCha's quarter-round on words a, b, c, d of `x`, in place (RFC 8439 section 2.1).
inline void chacha_quarter_round(ChachaWords& x, int a, int b, int c, int d) {
  x[a] = x[a] + x[b];
  x[d] = rotate_left(x[d] ^ x[a], 16u);
  x[c] = x[c] + x[d];
  x[b] = rotate_left(x[b] ^ x[c], 12u);
  x[a] = x[a] + x[b];
  x[d] = rotate_left(x[d] ^ x[a], 8u);
  x[c] = x[c] + x[d];
  x[b] = rotate_left(x[b] ^ x[c], 7u);
}

// The input block: constants, key, and the counter/nonce words of `layout`. `counter_high`
// is the counter's high word in the original layout (unused in the IETF layout); `nonce`
// holds 3 words (IETF) or 2 words in nonce[0..1] (original).
inline ChachaWords chacha_input(ChachaLayout layout, const ChachaKey& key, const UInt& counter_low,
                                const UInt& counter_high,
                                const std::array<UInt, 3>& nonce) {
  ChachaWords x{UInt(chacha_constants[0]),
                UInt(chacha_constants[1]),
                UInt(chacha_constants[2]),
                UInt(chacha_constants[3]),
                key[0],
                key[1],
                key[2],
                key[3],
                key[4],
                key[5],
                key[6],
                key[7],
                counter_low,
                nonce[0],
                nonce[1],
                nonce[2]};
  if (layout == ChachaLayout::Original) {
    x[13] = counter_high;
    x[14] = nonce[0];
    x[15] = nonce[1];
  }
  return x;
}

// The keystream block of `input` after `rounds` rounds (an even number): the permuted
// state plus the input.
inline ChachaWords chacha_block(const ChachaWords& input, unsigned rounds) {
  ChachaWords x = input;
  for (unsigned r = 0; r < rounds; r += 2) {
    chacha_quarter_round(x, 0, 4, 8, 12);  // columns
    chacha_quarter_round(x, 1, 5, 9, 13);
    chacha_quarter_round(x, 2, 6, 10, 14);
    chacha_quarter_round(x, 3, 7, 11, 15);
    chacha_quarter_round(x, 0, 5, 10, 15);  // diagonals
    chacha_quarter_round(x, 1, 6, 11, 12);
    chacha_quarter_round(x, 2, 7, 8, 13);
    chacha_quarter_round(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) x[i] = x[i] + input[i];
  return x;
}

}  // namespace sprig::hash
