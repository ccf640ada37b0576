// A Bitcoin-style mining search: for every nonce of a range, the 80-byte block header with
// that nonce in bytes 76..79 (little-endian) is hashed with SHA-256(SHA-256(header)), and the
// nonce wins when the hash, read as a little-endian 256-bit number, is at most the target.
//
//   auto result = hash::sha256d_search(device, header, first_nonce, count,
//                                      hash::target_from_bits(0x1d00ffff));
//
// As a miner does, the first 64 bytes of the header (which no nonce changes) are compressed
// once, on the device, into a midstate, with the first three rounds of the second block,
// which read only words no nonce changes; each nonce then costs two compressions, not three:
// the header's last 16 bytes with its padding, and the 32-byte digest with its own. The
// digest's most significant word is known after round 60 of the second, so a nonce that
// word rules out skips the last three rounds. Only winners leave the device, appended
// through an atomic counter to a buffer of fixed capacity (as in scrypt_search.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/hash_adds.hpp"
#include "sprig/stdlib/hash/mining_devices.hpp"
#include "sprig/stdlib/hash/mining_target.hpp"

namespace sprig::hash {

using Sha256dSearchResult = MiningSearchResult;

namespace detail {

// The midstate (one invocation): the SHA-256 state after the header's first 64 bytes, then
// the working variables after the second block's first three rounds; 16 words.
using Sha256dMidstateKernel = Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>>;
const Sha256dMidstateKernel& sha256d_midstate_kernel();

// One nonce per invocation: nonces first_nonce .. first_nonce + count - 1.
using Sha256dSearchKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                                   Buffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt>;
const Sha256dSearchKernel& sha256d_search_kernel(HashAddForm adds);

// Invocations a workgroup of the search kernel, one nonce each.
inline constexpr std::uint32_t sha256d_search_workgroup = 256;

// Nonces per launch: a long range becomes several launches of one sequence, each in rows of
// workgroups (invocation_rows), as long as the SHA-256 search's launches and for its reason.
inline constexpr std::uint32_t sha256d_nonces_per_launch = 1u << 26;

// Launches per chunk over several devices by default: 2^26 nonces, about 10 ms on an H100,
// against some 0.1 ms of uploads, submit and read-back per chunk.
inline constexpr std::uint32_t sha256d_launches_per_chunk = 1;

}  // namespace detail

// Records the search of nonces [first_nonce, first_nonce + count) of `header` (20 words, the
// header's 80 bytes; bytes 76..79 are ignored) into `sequence`: winners are appended to
// `winners` through `counter` (one word, which the caller zeroes; it ends as the number of
// winners found, kept or not). count is at most 2^32 - first_nonce.
void sha256d_search(Sequence& sequence, const DeviceBuffer<std::uint32_t>& header,
                    std::uint32_t first_nonce, std::uint64_t count, const DeviceBuffer<std::uint32_t>& target,
                    const DeviceBuffer<std::uint32_t>& counter, const DeviceBuffer<std::uint32_t>& winners);

// One-call form: searches, waits and returns the `capacity` smallest winners, ascending.
Sha256dSearchResult sha256d_search(Device& device, std::span<const std::uint8_t> header, std::uint32_t first_nonce,
                                   std::uint64_t count, const std::array<std::uint32_t, 8>& target,
                                   std::uint32_t capacity = 64);

// The same over several devices at once, each on a thread of its own (mining_devices.hpp),
// with the same result.
Sha256dSearchResult sha256d_search(std::span<Device* const> devices, std::span<const std::uint8_t> header,
                                   std::uint32_t first_nonce, std::uint64_t count,
                                   const std::array<std::uint32_t, 8>& target, std::uint32_t capacity = 64,
                                   const MiningSplit& split = {});

}  // namespace sprig::hash
