// scrypt's BlockMix (RFC 7914 section 4: scryptBlockMix, built on Salsa20/8) as a device
// function run by one invocation, for any block size r (a device value). The blocks are
// reached through callables, so the caller decides where they live (a buffer, shared memory,
// variables):
//
//   hash::scrypt_blockmix(UInt(1u),
//       [&](const UInt& i, const UInt& w) { return in[i * 16u + w].load(); },
//       [&](const UInt& i, const UInt& w, const UInt& value) { out[i * 16u + w] = value; });
//
// src(i, w) returns word w (0..15) of 64-byte input block i (0 <= i < 2r); dst(i, w, value)
// writes word w of output block i. Words are little-endian, as byte_words.hpp stores bytes.
// Input and output must not overlap: output block r is written before input block r is read.
#pragma once

#include <cstdint>

#include "sprig/stdlib/hash/scrypt_romix.hpp"

namespace sprig::hash {

template <class Src, class Dst>
void scrypt_blockmix(const UInt& r, const Src& src, const Dst& dst) {
  detail::ScryptMixer mixer;  // one invocation holding all 16 words of each block
  for (std::uint32_t w = 0; w < 16; ++w) mixer.offsets.push_back(UInt(w));
  detail::scrypt_blockmix(mixer, r, src, dst);
}

}  // namespace sprig::hash
