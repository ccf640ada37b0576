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
inline hash::ChachaStream f1_stream(const Seed& seed) {
  hash::ChachaStream s;
  auto words = hash::pack_bytes(seed);
  for (std::size_t i = 0; i < 8; ++i) s.key[i] = words[i];
  s.layout = hash::ChachaLayout::Ietf;
  s.rounds = 8;
  return s;
}

// Keystream words F1 reads for 2^K values of x: K 2^K bits, plus one word so that the two
// words read for the last x exist.
inline std::size_t f1_keystream_words(int k) { return ((std::size_t(k) << k) + 31) / 32 + 1; }

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
inline const auto& f1_kernel(int k, std::uint32_t invocations) {
  std::string name = "pos_f1";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> keystream, WriteBuffer<std::uint32_t> ys) {
          UInt x = global_id().x();
          if_(x < (1u << k), [&] { ys[x] = f1_y(keystream, x, k); });
        },
        workgroup(invocations));
  };
  const std::string key = name + "/k" + std::to_string(k) + "/" + std::to_string(invocations);
  return sprig::detail::cached_kernel<decltype(trace())>(key, trace);
}

}  // namespace sprig::pos::detail
