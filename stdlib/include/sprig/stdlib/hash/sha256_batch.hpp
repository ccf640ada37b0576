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

inline const auto& sha256_fixed_kernel(std::uint32_t message_bytes, bool twice) {
  std::string name = std::string(twice ? "double_sha256" : "sha256") + "_fixed<" + std::to_string(message_bytes) + ">";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> messages, WriteBuffer<std::uint32_t> digests, UInt count) {
          UInt i = global_id().x();
          if_(i < count, [&] {
            auto source = buffer_bytes(messages, i * message_bytes, message_bytes % 4 == 0);
            Sha256State state = sha256_message(source, message_bytes);
            if (twice) state = sha256_of_digest(state);
            store_words(digests, i * 8u, sha256_digest_words(state));
          });
        },
        workgroup(hash_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

inline const auto& sha256_spans_kernel(bool twice) {
  std::string name = twice ? "double_sha256_spans" : "sha256_spans";
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> spans, WriteBuffer<std::uint32_t> digests) {
          UInt i = global_id().x();
          if_(i < spans.size(), [&] {
            Expr<ByteSpan> span = spans[i];
            Sha256State state = sha256_message(buffer_bytes(data, span[&ByteSpan::offset]), span[&ByteSpan::length]);
            if (twice) state = sha256_of_digest(state);
            store_words(digests, i * 8u, sha256_digest_words(state));
          });
        },
        workgroup(hash_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

inline void check_fixed_batch(const char* what, std::size_t buffer_words, std::uint32_t message_bytes,
                              std::size_t count, std::size_t out_words, std::size_t out_per_message) {
  if (std::uint64_t(message_bytes) * count > std::uint64_t(buffer_words) * 4)
    throw std::invalid_argument(std::string(what) +
                                ": the message buffer holds fewer than count * message_bytes bytes");
  if (std::uint64_t(message_bytes) * count >= (std::uint64_t(1) << 32))
    throw std::invalid_argument(std::string(what) + ": messages beyond 4 GiB of bytes");
  if (out_words < count * out_per_message)
    throw std::invalid_argument(std::string(what) + ": the output buffer is too small");
}

inline void sha256_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                         std::size_t count, const DeviceBuffer<std::uint32_t>& digests, bool twice) {
  check_fixed_batch("sha256_fixed", messages.size(), message_bytes, count, digests.size(), 8);
  if (count == 0) return;
  sequence.run(sha256_fixed_kernel(message_bytes, twice), grid(count), messages, digests, std::uint32_t(count));
}

inline void sha256_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                         const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& digests, bool twice) {
  if (digests.size() < spans.size() * 8) throw std::invalid_argument("sha256_spans: the digest buffer is too small");
  if (spans.size() == 0) return;
  sequence.run(sha256_spans_kernel(twice), grid(spans.size()), data, spans, digests);
}

}  // namespace detail

// Records the SHA-256 digests of `count` messages of `message_bytes` bytes stored back to
// back in `messages`; digest i goes to words 8i..8i+7 of `digests`.
inline void sha256_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                         std::size_t count, const DeviceBuffer<std::uint32_t>& digests) {
  detail::sha256_fixed(sequence, messages, message_bytes, count, digests, false);
}
inline void double_sha256_fixed(Sequence& sequence, const DeviceBuffer<std::uint32_t>& messages,
                                std::uint32_t message_bytes, std::size_t count,
                                const DeviceBuffer<std::uint32_t>& digests) {
  detail::sha256_fixed(sequence, messages, message_bytes, count, digests, true);
}

// Records the SHA-256 digests of the messages data[spans[i]] (byte offsets and lengths, any
// alignment; the data buffer must not be empty).
inline void sha256_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                         const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& digests) {
  detail::sha256_spans(sequence, data, spans, digests, false);
}
inline void double_sha256_spans(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                                const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& digests) {
  detail::sha256_spans(sequence, data, spans, digests, true);
}

// One-call forms: run on `device` and wait.
inline void sha256_fixed(Device& device, const DeviceBuffer<std::uint32_t>& messages, std::uint32_t message_bytes,
                         std::size_t count, const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  sha256_fixed(sequence, messages, message_bytes, count, digests);
  sequence.run_and_wait();
}
inline void double_sha256_fixed(Device& device, const DeviceBuffer<std::uint32_t>& messages,
                                std::uint32_t message_bytes, std::size_t count,
                                const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  double_sha256_fixed(sequence, messages, message_bytes, count, digests);
  sequence.run_and_wait();
}
inline void sha256_spans(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& spans,
                         const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  sha256_spans(sequence, data, spans, digests);
  sequence.run_and_wait();
}
inline void double_sha256_spans(Device& device, const DeviceBuffer<std::uint32_t>& data,
                                const DeviceBuffer<ByteSpan>& spans, const DeviceBuffer<std::uint32_t>& digests) {
  auto sequence = device.sequence();
  double_sha256_spans(sequence, data, spans, digests);
  sequence.run_and_wait();
}

}  // namespace sprig::hash
