// Batched BLAKE3 of equal-length messages stored back to back, spread over the tree:
//
//   hash::blake3_fixed(device, sequence, data, message_bytes, count, out, 32);
//
// Messages longer than one chunk (1024 bytes) are hashed chunk-parallel: one invocation
// per chunk of every message computes its chaining value, then the tree's levels merge
// pairs of nodes (a last odd node moves up unchanged, which is exactly BLAKE3's
// left-balanced tree), up to eight levels per launch in shared memory, and the last level
// is the root with its extended output. A 1 MiB message so occupies 1024 invocations
// instead of one. When a message's chunks are a power of two up to a workgroup, or a
// multiple of one, the chunks and the first levels share one launch and their chaining
// values stay in shared memory. Messages of at most one chunk
// take one invocation each. Output i is `out_bytes` bytes in words i*W .. i*W+W-1 of
// `out`, W = ceil(out_bytes / 4), as in blake3_batch.hpp. Messages whose length is a
// multiple of 16 bytes are read 16 bytes per load (vector_bytes.hpp).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/blake3_batch.hpp"
#include "sprig/stdlib/hash/blake3_message.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig::hash {

// Records the BLAKE3 hashes (out_bytes each) of `count` messages of `message_bytes` bytes
// stored back to back in `data`.
void blake3_fixed(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                  std::uint32_t message_bytes, std::size_t count, const DeviceBuffer<std::uint32_t>& out,
                  std::uint32_t out_bytes = 32);

// Keyed hashes of the same messages under the 32-byte key `key` (little-endian words).
void blake3_keyed_fixed(Device& device, Sequence& sequence, const std::array<std::uint32_t, 8>& key,
                        const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes, std::size_t count,
                        const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32);

// Keys derived from each message as key material under the context string `context`
// (the context key is hashed on the device first, as in blake3_derive_key).
void blake3_derive_key_fixed(Device& device, Sequence& sequence, std::string_view context,
                             const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes, std::size_t count,
                             const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32);

// One-call form: run on `device` and wait.
void blake3_fixed(Device& device, const DeviceBuffer<std::uint32_t>& data, std::uint32_t message_bytes,
                  std::size_t count, const DeviceBuffer<std::uint32_t>& out, std::uint32_t out_bytes = 32);

}  // namespace sprig::hash
