// Batched BLAKE3 on a device, in its three modes and with extended output: one invocation
// per message (blake3_message.hpp), messages named by byte spans of one data buffer.
//
//   hash::blake3(device, sequence, data, spans, out, 32);                 // hash
//   hash::blake3_keyed(device, sequence, key_words, data, spans, out, 32); // keyed_hash
//   hash::blake3_derive_key(device, sequence, "ctx", data, spans, out, 32);
//
// Output i is `out_bytes` bytes in words i*W .. i*W+W-1 of `out`, W = ceil(out_bytes / 4)
// (bytes past out_bytes in the last word are the next output bytes). derive_key hashes the
// context string on the device first (one more launch), so no BLAKE3 runs on the host.
// One invocation walks a whole message, 20 loop back-edges per chunk: on devices that cap an
// invocation's back-edges (lavapipe: 65,535 in all) messages of 3276 chunks or more come out
// wrong there; blake3_fixed.hpp hashes them chunk-parallel (blake3_host.hpp routes them).
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/blake3_message.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

namespace detail {

// Reads the 8 key words of a launch.
inline Blake3Words blake3_key_of(const ReadBuffer<std::uint32_t>& key) {
  Blake3Words k = zero_words<8>();
  for (std::uint32_t j = 0; j < 8; ++j) k[j] = key[j];
  return k;
}

// Writes root output words [0, out_words) of message `i`.
template <class Out>
void blake3_store_output(const Out& out, const UInt& i, const UInt& out_words,
                         const Blake3Root& root, const HashAdder& add = {}) {
  for_(0u, (out_words + 15u) / 16u, [&](UInt t) {
    Blake3Output words = blake3_root_output(root, t, add);
    for (std::uint32_t j = 0; j < 16; ++j) {
      UInt w = t * 16u + j;
      if_(w < out_words, [&] { out[i * out_words + w] = words[j]; });
    }
  });
}

// The kernel of every mode (the mode's flags and key are launch arguments), its adds in the
// form given.
using Blake3SpansKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<ByteSpan>, ReadBuffer<std::uint32_t>,
                                 WriteBuffer<std::uint32_t>, UInt, UInt>;
const Blake3SpansKernel& blake3_kernel(HashAddForm adds);

// Records the hashes of data[spans[i]] under the 8 key words `key` with the mode's flags.
void blake3_launch(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                   const DeviceBuffer<std::uint32_t>& key, const DeviceBuffer<std::uint32_t>& out,
                   std::uint32_t out_bytes, std::uint32_t mode_flags);

// BLAKE3's IV as host words: the key of plain hashing.
std::vector<std::uint32_t> blake3_iv_words();

// Records derive_key's first step: the 8 key words hashed from `context`.
DeviceBuffer<std::uint32_t> blake3_context_key(Device& device, Sequence& sequence, std::string_view context);

}  // namespace detail

// Records the BLAKE3 hashes (out_bytes each) of data[spans[i]].
void blake3(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
            const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32);

// Keyed hashes under the 32-byte key `key` (little-endian words).
void blake3_keyed(Device& device, Sequence& sequence, const std::array<std::uint32_t, 8>& key,
                  const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                  const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32);

// Keys derived from the key material data[spans[i]] under the context string `context`.
void blake3_derive_key(Device& device, Sequence& sequence, std::string_view context,
                       const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                       const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32);

// One-call forms: run on `device` and wait.
void blake3(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
            const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32);
void blake3_keyed(Device& device, const std::array<std::uint32_t, 8>& key, const DeviceBuffer<std::uint32_t>& data,
                  const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out,
                  std::uint32_t out_bytes = 32);
void blake3_derive_key(Device& device, std::string_view context, const DeviceBuffer<std::uint32_t>& data,
                       const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out,
                       std::uint32_t out_bytes = 32);

}  // namespace sprig::hash
