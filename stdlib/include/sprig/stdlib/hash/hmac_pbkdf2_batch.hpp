// Batched HMAC-SHA-256 and PBKDF2-HMAC-SHA-256 on a device, over byte spans of one data
// buffer (keys, messages, passwords and salts may share it):
//
//   hash::hmac_sha256(sequence, data, key_spans, message_spans, macs);     // 8 words each
//   hash::pbkdf2_hmac_sha256(sequence, data, passwords, salts, iterations, dk_bytes, out);
//
// PBKDF2 output i is words i*W .. i*W+W-1 of `out`, W = ceil(dk_bytes / 4) (bytes past
// dk_bytes in the last word are the next bytes of the derived stream). One invocation per
// (input, 32-byte output block): the blocks of one input run in parallel.
#pragma once

#include <algorithm>

#include "sprig/stdlib/hash/pbkdf2_sha256.hpp"
#include "sprig/stdlib/hash/sha256_batch.hpp"

namespace sprig::hash {

namespace detail {

using HmacSha256Kernel =
    Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<ByteSpan>, ReadBuffer<ByteSpan>, WriteBuffer<std::uint32_t>>;
const HmacSha256Kernel& hmac_sha256_kernel();

// One launch of a PBKDF2 batch: `count` iterations of every (input, block), resumed from
// and saved to `running` (u then t, 16 words per invocation). The first launch computes
// U_1 (and counts it), the last writes the output.
using Pbkdf2HmacSha256Kernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<ByteSpan>, ReadBuffer<ByteSpan>,
                                      Buffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt>;
const Pbkdf2HmacSha256Kernel& pbkdf2_hmac_sha256_kernel();

// Iterations per launch: below lavapipe's 65535 loop back-edges per invocation (see
// pbkdf2_sha256.hpp), and short enough for a GPU's watchdog with large batches.
constexpr std::uint32_t pbkdf2_iterations_per_launch = 32768;

}  // namespace detail

// Records HMAC-SHA-256(data[key_spans[i]], data[message_spans[i]]) into words 8i..8i+7 of
// `macs`.
void hmac_sha256(Sequence& sequence, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& key_spans,
                 const DeviceBuffer<ByteSpan>& message_spans, const DeviceBuffer<std::uint32_t>& macs);

// Records PBKDF2-HMAC-SHA-256(password i, salt i, iterations, dk_bytes) for every pair, in
// launches of at most pbkdf2_iterations_per_launch iterations (the running state lives in a
// scratch buffer allocated on `device`).
void pbkdf2_hmac_sha256(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                        const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
                        std::uint32_t iterations, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out);

// One-call forms: run on `device` and wait.
void hmac_sha256(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& key_spans,
                 const DeviceBuffer<ByteSpan>& message_spans, const DeviceBuffer<std::uint32_t>& macs);
void pbkdf2_hmac_sha256(Device& device, const DeviceBuffer<std::uint32_t>& data,
                        const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
                        std::uint32_t iterations, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out);

}  // namespace sprig::hash
