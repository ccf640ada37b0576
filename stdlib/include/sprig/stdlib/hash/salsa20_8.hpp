// The Salsa20/8 core (RFC 7914 section 3; Bernstein's Salsa20 with 8 rounds) as a device
// function, unrolled at trace time: 16 little-endian words in, 16 out. scrypt's BlockMix
// calls it 2r times per step; callers carry the words across device loops in WordVars<16>.
//
// salsa20_quarter_round is also the building block of the cooperative BlockMix
// (scrypt_romix.hpp), where each of four invocations holds one quarter-column.
#pragma once

#include <array>
#include <cstdint>

#include "sprig/dsl.hpp"

namespace sprig::hash {

using SalsaWords = std::array<UInt, 16>;

// Salsa20's quarter-round on (a, b, c, d), in place (the specification's order: b, c, d, a).
inline void salsa20_quarter_round(UInt& a, UInt& b, UInt& c,
                                  UInt& d) {
  b = b ^ rotate_left(a + d, 7u);
  c = c ^ rotate_left(b + a, 9u);
  d = d ^ rotate_left(c + b, 13u);
  a = a ^ rotate_left(d + c, 18u);
}

// Salsa20/8 core of `input`: four double rounds (columns, then rows), plus the input.
inline SalsaWords salsa20_8(const SalsaWords& input) {
  SalsaWords x = input;
  auto quarter = [&](int a, int b, int c, int d) { salsa20_quarter_round(x[a], x[b], x[c], x[d]); };
  for (int round = 0; round < 8; round += 2) {
    quarter(0, 4, 8, 12);  // columns
    quarter(5, 9, 13, 1);
    quarter(10, 14, 2, 6);
    quarter(15, 3, 7, 11);
    quarter(0, 1, 2, 3);  // rows
    quarter(5, 6, 7, 4);
    quarter(10, 11, 8, 9);
    quarter(15, 12, 13, 14);
  }
  for (int i = 0; i < 16; ++i) x[i] = x[i] + input[i];
  return x;
}

}  // namespace sprig::hash
