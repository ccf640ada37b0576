// BLAKE3 (hash mode, 32-byte output) of host bytes in one call, on any sprig::Device, through
// the kernels of blake3_fixed.hpp and blake3_batch.hpp:
//
//   hash::Blake3Digest d = hash::blake3(device, bytes);
//   auto same = hash::blake3_batch(device, records, 1024);       // records: n * 1024 bytes
//   auto any = hash::blake3_batch(device, {"abc", "", text});     // any lengths
//
// One message and equal-length messages go through the fixed-length kernels, which spread a
// message of more than one chunk (1024 bytes) over one invocation per chunk and a launch per
// tree level. Messages of any lengths take one invocation each, walking the whole tree; on
// devices that cut long loops short (lavapipe) a message too long for that is hashed alone,
// chunk-parallel. Batches larger than one launch or one buffer run in pieces. Both batch
// forms also take several devices (batch_devices.hpp).
#pragma once

#include <span>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/batch_devices.hpp"
#include "sprig/stdlib/hash/blake3_batch.hpp"
#include "sprig/stdlib/hash/blake3_fixed.hpp"
#include "sprig/stdlib/hash/byte_view.hpp"
#include "sprig/stdlib/hash/digest.hpp"

namespace sprig::hash {

// BLAKE3 hashes of the messages of `message_bytes` bytes each stored back to back in
// `messages`, whose length must be a whole number of messages.
std::vector<Blake3Digest> blake3_batch(Device& device, ByteView messages, std::size_t message_bytes);

// The BLAKE3 hash of one message.
Blake3Digest blake3(Device& device, ByteView message);

// BLAKE3 hashes of messages of any lengths, in order.
std::vector<Blake3Digest> blake3_batch(Device& device, const ByteViews& messages);

// The same two batch forms over several devices at once (batch_devices.hpp), with the same
// hashes.
std::vector<Blake3Digest> blake3_batch(std::span<Device* const> devices, ByteView messages, std::size_t message_bytes,
                                       const BatchSplit& split = {});
std::vector<Blake3Digest> blake3_batch(std::span<Device* const> devices, const ByteViews& messages,
                                       const BatchSplit& split = {});

}  // namespace sprig::hash
