// ChaCha keystream generation on a device: bytes [offset, offset + length) of the stream of
// one key and nonce, for any round count and either counter layout (chacha_block.hpp).
//
//   hash::ChachaStream s{key_words, nonce_words, hash::ChachaLayout::Ietf, 8};
//   hash::chacha_keystream(sequence, s, byte_offset, length, out);   // ceil(length/4) words
//
// One invocation per 64-byte block when the offset is a multiple of 64; any other offset
// takes a kernel whose invocations compute the two blocks their 64 output bytes straddle.
// Either way the workgroup's output goes out through shared memory, word-interleaved.
#pragma once

#include <array>
#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/chacha_block.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

// A key stream: the key's 32 bytes and the nonce's 12 (IETF) or 8 (original, nonce[2]
// unused) as little-endian words.
struct ChachaStream {
  std::array<std::uint32_t, 8> key{};
  std::array<std::uint32_t, 3> nonce{};
  ChachaLayout layout = ChachaLayout::Ietf;
  unsigned rounds = 20;
};

namespace detail {

inline constexpr std::uint32_t keystream_workgroup = 64;

// Push constants of one keystream launch.
struct ChachaLaunch {
  std::array<std::uint32_t, 8> key;
  std::array<std::uint32_t, 4> nonce;  // 3 used; 4 keep the struct a whole number of vec4s
  std::uint32_t first_block_low;
  std::uint32_t first_block_high;
  std::uint32_t byte_shift;  // offset % 64
  std::uint32_t words;       // output words
};
SPRIG_STRUCT(ChachaLaunch, key, nonce, first_block_low, first_block_high, byte_shift, words)

// Keystream block `first + b` of the launch's stream.
inline ChachaWords chacha_launch_block(const Expr<ChachaLaunch>& p, ChachaLayout layout, unsigned rounds,
                                       const UInt& b) {
  Expr<std::array<std::uint32_t, 8>> key_array = p[&ChachaLaunch::key];
  Expr<std::array<std::uint32_t, 4>> nonce_array = p[&ChachaLaunch::nonce];
  ChachaKey key{key_array[0], key_array[1], key_array[2], key_array[3],
                key_array[4], key_array[5], key_array[6], key_array[7]};
  std::array<UInt, 3> nonce{nonce_array[0], nonce_array[1], nonce_array[2]};
  UInt low = p[&ChachaLaunch::first_block_low] + b;
  UInt high = p[&ChachaLaunch::first_block_high] + add_carry(p[&ChachaLaunch::first_block_low], b);
  return chacha_block(chacha_input(layout, key, low, high, nonce), rounds);
}

// The keystream kernel of a round count and layout; `block_aligned` for offsets that are a
// multiple of 64, the funnel-shifting one otherwise.
using ChachaKeystreamKernel = Kernel<WriteBuffer<std::uint32_t>, Expr<ChachaLaunch>>;
const ChachaKeystreamKernel& chacha_keystream_kernel(ChachaLayout layout, unsigned rounds, bool block_aligned);

}  // namespace detail

// Records keystream bytes [byte_offset, byte_offset + length) of `stream` into the first
// ceil(length / 4) words of `out` (bytes past `length` in the last word are the stream's
// next bytes). The IETF layout's 32-bit counter limits its stream to 2^38 bytes.
void chacha_keystream(Sequence& sequence, const ChachaStream& stream, std::uint64_t byte_offset, std::uint64_t length,
                      const DeviceBuffer<std::uint32_t>& out);

// One-call form: run on `device` and wait.
void chacha_keystream(Device& device, const ChachaStream& stream, std::uint64_t byte_offset, std::uint64_t length,
                      const DeviceBuffer<std::uint32_t>& out);

}  // namespace sprig::hash
