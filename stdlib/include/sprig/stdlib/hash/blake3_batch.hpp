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

#include <stdexcept>
#include <string>
#include <string_view>

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
                         const Blake3Root& root) {
  for_(0u, (out_words + 15u) / 16u, [&](UInt t) {
    Blake3Output words = blake3_root_output(root, t);
    for (std::uint32_t j = 0; j < 16; ++j) {
      UInt w = t * 16u + j;
      if_(w < out_words, [&] { out[i * out_words + w] = words[j]; });
    }
  });
}

inline const auto& blake3_kernel() {
  std::string name = "blake3_spans";
  auto trace = [=] {
    return kernel(
        name,
        [](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> spans, ReadBuffer<std::uint32_t> key,
           WriteBuffer<std::uint32_t> out, UInt mode_flags, UInt out_words) {
          UInt i = global_id().x();
          if_(i < spans.size(), [&] {
            Expr<ByteSpan> span = spans[i];
            Blake3Root root = blake3_message(buffer_bytes(data, span[&ByteSpan::offset]), span[&ByteSpan::length],
                                             blake3_key_of(key), mode_flags);
            blake3_store_output(out, i, out_words, root);
          });
        },
        workgroup(64));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

inline void blake3_launch(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                          const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& key,
                          const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes, std::uint32_t mode_flags) {
  if (out_bytes == 0) throw std::invalid_argument("blake3: the output length must be positive");
  std::uint32_t out_words = (out_bytes + 3) / 4;
  if (out.size() < std::size_t(out_words) * spans.size())
    throw std::invalid_argument("blake3: the output buffer is too small");
  if (spans.size() == 0) return;
  sequence.run(blake3_kernel(), grid(spans.size()), data, spans, key, out, mode_flags, out_words);
}

inline std::vector<std::uint32_t> blake3_iv_words() {
  return {sha256_initial_words.begin(), sha256_initial_words.end()};
}

}  // namespace detail

// Records the BLAKE3 hashes (out_bytes each) of data[spans[i]].
inline void blake3(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                   const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out,
                   std::uint32_t out_bytes = 32) {
  detail::blake3_launch(sequence, data, spans, device.upload(detail::blake3_iv_words()), out, out_bytes, 0);
}

// Keyed hashes under the 32-byte key `key` (little-endian words).
inline void blake3_keyed(Device& device, Sequence& sequence, const std::array<std::uint32_t, 8>& key,
                         const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                         const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32) {
  auto key_buffer = device.upload(std::vector<std::uint32_t>(key.begin(), key.end()));
  detail::blake3_launch(sequence, data, spans, key_buffer, out, out_bytes, blake3_flags::keyed_hash);
}

// Keys derived from the key material data[spans[i]] under the context string `context`.
inline void blake3_derive_key(Device& device, Sequence& sequence, std::string_view context,
                              const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                              const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32) {
  auto context_data = device.upload(pack_bytes(context));
  auto context_span = device.upload(std::vector<ByteSpan>{{0, std::uint32_t(context.size())}});
  auto context_key = device.alloc<std::uint32_t>(8);
  detail::blake3_launch(sequence, context_data, context_span, device.upload(detail::blake3_iv_words()), context_key, 32,
                        blake3_flags::derive_key_context);
  detail::blake3_launch(sequence, data, spans, context_key, out, out_bytes, blake3_flags::derive_key_material);
}

// One-call forms: run on `device` and wait.
inline void blake3(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                   const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32) {
  auto sequence = device.sequence();
  blake3(device, sequence, data, spans, out, out_bytes);
  sequence.run_and_wait();
}
inline void blake3_keyed(Device& device, const std::array<std::uint32_t, 8>& key,
                         const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                         const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32) {
  auto sequence = device.sequence();
  blake3_keyed(device, sequence, key, data, spans, out, out_bytes);
  sequence.run_and_wait();
}
inline void blake3_derive_key(Device& device, std::string_view context, const DeviceBuffer<std::uint32_t>& data,
                              const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& out,
                              std::uint32_t out_bytes = 32) {
  auto sequence = device.sequence();
  blake3_derive_key(device, sequence, context, data, spans, out, out_bytes);
  sequence.run_and_wait();
}

}  // namespace sprig::hash
