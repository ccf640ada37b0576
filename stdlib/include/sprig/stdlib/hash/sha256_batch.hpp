// Batched SHA-256 and double SHA-256 on a device: one invocation per message.
//
//   hash::sha256_fixed(sequence, messages, 64, count, digests);   // message i at byte 64 i
//   hash::sha256_spans(sequence, data, spans, digests);           // message i = spans[i]
//   hash::double_sha256_fixed(...), hash::double_sha256_spans(...) // SHA-256(SHA-256(m))
//
// Messages and digests are bytes in little-endian uint32 words (byte_words.hpp); digest i
// is words 8i..8i+7. The fixed-length kernel is traced per length, so its padding is
// constant. Each invocation reads its own message: for short messages a word-interleaved
// layout (word j of message i at j * count + i) would coalesce better on a GPU.
// One invocation loops over its message's 64-byte blocks: on devices that cap an
// invocation's loop back-edges (lavapipe: 65,535) keep messages within
// sha256_max_message_bytes (sha256_host.hpp).
#pragma once

#include <stdexcept>
#include <string>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/sha256_message.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

namespace detail {

constexpr std::uint32_t hash_workgroup = 64;

template <class Digests>
void store_words(const Digests& out, const UInt& first, const Sha256State& words) {
  for (std::uint32_t j = 0; j < 8; ++j) out[first + j] = words[j];
}

// The kernels (traced once per length and variant, kept in the kernel cache).
using Sha256FixedKernel = Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt>;
using Sha256SpansKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<ByteSpan>, WriteBuffer<std::uint32_t>>;
const Sha256FixedKernel& sha256_fixed_kernel(std::uint32_t message_bytes, bool twice, HashAddForm adds);
const Sha256SpansKernel& sha256_spans_kernel(bool twice);

}  // namespace detail

// Records the SHA-256 digests of `count` messages of `message_bytes` bytes stored back to
// back in `messages`; digest i goes to words 8i..8i+7 of `digests`.
void sha256_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& digests);
void double_sha256_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                         std::size_t count, const DeviceBuffer<std::uint32_t>& digests);

// Records the SHA-256 digests of the messages data[spans[i]] (byte offsets and lengths, any
// alignment; the data buffer must not be empty).
void sha256_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                  const DeviceBuffer<std::uint32_t>& digests);
void double_sha256_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                         const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& digests);

// One-call forms: run on `device` and wait.
void sha256_fixed(Device& device, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& digests);
void double_sha256_fixed(Device& device, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                         std::size_t count, const DeviceBuffer<std::uint32_t>& digests);
void sha256_spans(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                  const DeviceBuffer<std::uint32_t>& digests);
void double_sha256_spans(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                         const DeviceBuffer<std::uint32_t>& digests);

}  // namespace sprig::hash
