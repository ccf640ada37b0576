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

inline const auto& chacha_keystream_kernel(ChachaLayout layout, unsigned rounds, bool block_aligned) {
  std::string name = std::string("chacha") + std::to_string(rounds) +
                     (layout == ChachaLayout::Ietf ? "_ietf" : "_original") +
                     (block_aligned ? "_keystream" : "_keystream_shifted");
  auto trace = [=] {
    return kernel(
        name,
        [=](WriteBuffer<std::uint32_t> out, Expr<ChachaLaunch> p) {
          // Each invocation computes 16 consecutive output words; the workgroup stages them
          // in shared memory (rows padded to 17 words: no bank conflicts) and stores them
          // word-interleaved, so that neighbouring lanes write neighbouring words. Stores
          // straight from registers, 64 bytes apart per lane, reach a fraction of the write
          // bound (docs/benchmarks.md, "Hashing").
          auto staged = shared_array<std::uint32_t>(keystream_workgroup * 17, "chacha_staged");
          UInt g = global_id().x();
          UInt lane = local_index();
          UInt words = p[&ChachaLaunch::words];
          ChachaWords block = chacha_launch_block(p, layout, rounds, g);
          if (block_aligned) {
            for (std::uint32_t k = 0; k < 16; ++k) staged[lane * 17u + k] = block[k];
          } else {
            // Output word k is stream bytes shift + 4k.. of the 128-byte window of blocks
            // first + g and first + g + 1: a funnel shift of two window words.
            ChachaWords next = chacha_launch_block(p, layout, rounds, g + 1u);
            Var<std::array<std::uint32_t, 32>> window;
            for (std::uint32_t k = 0; k < 16; ++k) {
              window[k] = block[k];
              window[16 + k] = next[k];
            }
            UInt shift = p[&ChachaLaunch::byte_shift];
            UInt q = shift / 4u, r = (shift % 4u) * 8u;
            for (std::uint32_t k = 0; k < 16; ++k) {
              UInt lo = window[q + k], hi = window[q + k + 1u];
              staged[lane * 17u + k] = (lo >> r) | ((hi << 1u) << (31u - r));  // no shift by 32 when r == 0
            }
          }
          barrier();
          UInt first = (g - lane) * 16u;
          for (std::uint32_t k = 0; k < 16; ++k) {
            UInt i = lane + k * keystream_workgroup;  // word i of the workgroup's output
            UInt w = first + i;
            if_(w < words, [&] { out[w] = staged[(i / 16u) * 17u + i % 16u].load(); });
          }
        },
        workgroup(keystream_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

}  // namespace detail

// Records keystream bytes [byte_offset, byte_offset + length) of `stream` into the first
// ceil(length / 4) words of `out` (bytes past `length` in the last word are the stream's
// next bytes). The IETF layout's 32-bit counter limits its stream to 2^38 bytes.
inline void chacha_keystream(Sequence& sequence, const ChachaStream& stream, std::uint64_t byte_offset,
                             std::uint64_t length, const DeviceBuffer<std::uint32_t>& out) {
  if (stream.rounds == 0 || stream.rounds % 2 != 0)
    throw std::invalid_argument("chacha_keystream: the round count must be even and positive");
  std::uint64_t words = (length + 3) / 4;
  if (out.size() < words) throw std::invalid_argument("chacha_keystream: the output buffer is too small");
  if (words >= (std::uint64_t(1) << 32) - 32)
    throw std::invalid_argument("chacha_keystream: more than 2^32 words in one call");
  if (length == 0) return;
  std::uint64_t first_block = byte_offset / 64;
  std::uint64_t last_block = (byte_offset + words * 4 - 1) / 64 + 1;
  if (stream.layout == ChachaLayout::Ietf && last_block >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("chacha_keystream: beyond the IETF layout's 2^32 blocks");
  detail::ChachaLaunch p{stream.key,
                         {stream.nonce[0], stream.nonce[1], stream.nonce[2], 0},
                         std::uint32_t(first_block),
                         std::uint32_t(first_block >> 32),
                         std::uint32_t(byte_offset % 64),
                         std::uint32_t(words)};
  bool aligned = byte_offset % 64 == 0;
  sequence.run(detail::chacha_keystream_kernel(stream.layout, stream.rounds, aligned), grid((words + 15) / 16), out, p);
}

inline void chacha_keystream(Device& device, const ChachaStream& stream, std::uint64_t byte_offset,
                             std::uint64_t length, const DeviceBuffer<std::uint32_t>& out) {
  auto sequence = device.sequence();
  chacha_keystream(sequence, stream, byte_offset, length, out);
  sequence.run_and_wait();
}

}  // namespace sprig::hash
