// F1, table 1 of the proof of space: y(x) = (keystream bits [Kx, Kx + K) << 6) | (x >> (K - 6)),
// where the keystream is ChaCha8 (IETF layout, counter from 0, nonce 0) keyed by the seed and
// read MSB-first. The keystream is generated once per record into a buffer
// (hash::chacha_keystream), and each invocation reads its K bits from two words of it.
#pragma once

#include <string>

#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/chacha_keystream.hpp"
#include "sprig/stdlib/kernel_cache.hpp"
#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"
#include "sprig/stdlib/pos/workgroups.hpp"
#include "sprig/stdlib/pos/y_value.hpp"

namespace sprig::pos {

// The keystream of a seed: the seed's bytes are the ChaCha key as they are.
hash::ChachaStream f1_stream(const Seed& seed);

// Keystream words F1 reads for 2^K values of x: K 2^K bits, plus one word so that the two
// words read for the last x exist.
std::size_t f1_keystream_words(int k);

// Where x's K bits start in the keystream: word q, bit offset. K x exceeds 32 bits from
// K = 28 (2^28 x 28), so the word is K (x / 32) plus the words of K (x mod 32) bits.
struct F1BitStart {
  UInt q, offset;
};
inline F1BitStart f1_bit_start(const UInt& x, int k) {
  UInt within = (x & 31u) * std::uint32_t(k);
  return {(x >> 5u) * std::uint32_t(k) + (within >> 5u), within & 31u};
}

// y of `x` from the keystream's little-endian words.
template <class Words>
YValue f1_y(const Words& keystream, const UInt& x, int k) {
  auto [q, offset] = f1_bit_start(x, k);
  UInt high = hash::big_endian(keystream[q].load()) << offset;
  // A shift by 32 is not a zero here (shift counts are taken modulo the width): select.
  UInt low = select(offset == 0u, UInt(0u), hash::big_endian(keystream[q + 1u].load()) >> (32u - offset));
  UInt partial = (high | low) >> std::uint32_t(32 - k);
  UInt y_low = (partial << std::uint32_t(param_ext)) | (x >> std::uint32_t(k - param_ext));
  if (!wide_y(k)) return narrow_y(y_low);
  return {y_low, partial >> std::uint32_t(32 - param_ext)};
}

}  // namespace sprig::pos

namespace sprig::pos::detail {

// y(x) for x < 2^K into ys (y_words(k) words each).
using F1Kernel = Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>>;
const F1Kernel& f1_kernel(int k, std::uint32_t invocations);

}  // namespace sprig::pos::detail
