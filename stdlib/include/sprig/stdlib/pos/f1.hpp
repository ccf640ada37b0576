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

namespace sprig::pos {

// The keystream of a seed: the seed's bytes are the ChaCha key as they are.
hash::ChachaStream f1_stream(const Seed& seed);

// Keystream words F1 reads for 2^K values of x: K 2^K bits, plus one word so that the two
// words read for the last x exist.
std::size_t f1_keystream_words(int k);

// y of `x` from the keystream's little-endian words.
template <class Words>
UInt f1_y(const Words& keystream, const UInt& x, int k) {
  UInt start = x * std::uint32_t(k);
  UInt q = start >> 5u, offset = start & 31u;
  UInt high = hash::big_endian(keystream[q].load()) << offset;
  // A shift by 32 is not a zero here (shift counts are taken modulo the width): select.
  UInt low = select(offset == 0u, UInt(0u), hash::big_endian(keystream[q + 1u].load()) >> (32u - offset));
  UInt partial = (high | low) >> std::uint32_t(32 - k);
  return (partial << std::uint32_t(param_ext)) | (x >> std::uint32_t(k - param_ext));
}

}  // namespace sprig::pos

namespace sprig::pos::detail {

// ys[x] = y(x) for x < 2^K.
using F1Kernel = Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>>;
const F1Kernel& f1_kernel(int k, std::uint32_t invocations);

}  // namespace sprig::pos::detail
