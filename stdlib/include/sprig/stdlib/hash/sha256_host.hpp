// SHA-256 of host bytes in one call, on any sprig::Device (Vulkan or the simulator), through
// the batched kernels of sha256_batch.hpp:
//
//   hash::Sha256Digest d = hash::sha256(device, "abc");           // d.hex() == "ba7816bf..."
//   auto same = hash::sha256_batch(device, records, 64);          // records: n * 64 bytes
//   auto any = hash::sha256_batch(device, {"abc", "", text});     // any lengths
//
// The equal-length form takes the messages back to back in one byte range and runs the
// fixed-length kernel (traced once per length, its padding folded at trace time): the shape
// for a million messages of one length. The list form takes messages of any lengths and runs
// the span kernel (one kernel for every length). Batches larger than one launch or one
// buffer of the device run in pieces. One invocation hashes one message, block after block.
// Both batch forms also take several devices (batch_devices.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/batch_devices.hpp"
#include "sprig/stdlib/hash/byte_view.hpp"
#include "sprig/stdlib/hash/digest.hpp"
#include "sprig/stdlib/hash/sha256_batch.hpp"

namespace sprig::hash {

// The longest message one invocation hashes on a device described by `info`: a buffer's worth,
// and on devices that cut loops short (lavapipe) as many 64-byte blocks as its loops run.
std::uint64_t sha256_max_message_bytes(const DeviceInfo& info);

// SHA-256 digests of messages of any lengths, in order.
std::vector<Sha256Digest> sha256_batch(Device& device, const ByteViews& messages);

// SHA-256 digests of the messages of `message_bytes` bytes each stored back to back in
// `messages`, whose length must be a whole number of messages.
std::vector<Sha256Digest> sha256_batch(Device& device, ByteView messages, std::size_t message_bytes);

// The same over several devices at once (batch_devices.hpp), with the same digests.
std::vector<Sha256Digest> sha256_batch(std::span<Device* const> devices, const ByteViews& messages,
                                       const BatchSplit& split = {});
std::vector<Sha256Digest> sha256_batch(std::span<Device* const> devices, ByteView messages, std::size_t message_bytes,
                                       const BatchSplit& split = {});

// The SHA-256 digest of one message.
Sha256Digest sha256(Device& device, ByteView message);

}  // namespace sprig::hash
