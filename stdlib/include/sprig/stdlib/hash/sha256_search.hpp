// A preimage search over single-block messages, the work of hashcat's brute-force mode for
// raw SHA-256 (-m 1400 -a 3): for every candidate c of a range, the message is `message`
// with its first four bytes replaced by c, big-endian (byte 0 the most significant), and c
// wins when the message's SHA-256 is `digest`.
//
//   auto result = hash::sha256_search(device, message, 0, std::uint64_t(1) << 32, digest);
//
// As in hashcat's kernels only the candidate's word changes from one invocation to the
// next. The rest of the block is the message's (read from a small buffer) and its padding,
// which the kernel, one per message length, knows at compile time: the zero words past the
// message fold away. The digest's last word is the working variable e after round 60 plus
// its initial value, so a candidate that word rules out skips the last three rounds; only
// winners leave the device, appended through an atomic counter to a buffer of fixed
// capacity (as in sha256d_search.hpp).
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

using Sha256SearchResult = MiningSearchResult;  // `nonces` holds the winning candidates

// Messages the search takes: at least the candidate's four bytes, at most one block's worth
// of message with its padding (55 bytes).
inline constexpr std::uint32_t sha256_search_min_bytes = 4, sha256_search_max_bytes = 55;

// The padded block of `message` (4 to 55 bytes) as SHA-256's 16 big-endian words, the form
// the recorded search reads; word 0 is the candidate's and is ignored.
std::vector<std::uint32_t> sha256_search_block(std::span<const std::uint8_t> message);

// A digest's 32 bytes as SHA-256's 8 big-endian words.
std::array<std::uint32_t, 8> sha256_digest_words(std::span<const std::uint8_t> digest);

namespace detail {

// One candidate per invocation: candidates first .. first + count - 1.
using Sha256SearchKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, Buffer<std::uint32_t>,
                                  WriteBuffer<std::uint32_t>, UInt, UInt>;
const Sha256SearchKernel& sha256_search_kernel(std::uint32_t message_bytes, HashAddForm adds);

// Invocations a workgroup of the search kernel, one candidate each.
inline constexpr std::uint32_t sha256_search_workgroup = 256;

// Candidates per launch, in rows of workgroups (invocation_rows): every launch ends in a
// tail where the GPU runs out of workgroups, and on an H100 the search in launches of 2^22
// candidates (one row) took 3% longer than in launches of 2^26.
inline constexpr std::uint32_t sha256_search_candidates_per_launch = 1u << 26;

// Launches per chunk over several devices by default: 2^26 candidates, about 4 ms on an
// H100, against some 0.1 ms of uploads, submit and read-back per chunk.
inline constexpr std::uint32_t sha256_search_launches_per_chunk = 1;

}  // namespace detail

// Records the search of candidates [first, first + count) into `sequence`: `block` holds
// sha256_search_block(message) (16 words), `digest` the 8 words of sha256_digest_words;
// winners are appended to `winners` through `counter` (one word, which the caller zeroes; it
// ends as the number of winners found, kept or not). count is at most 2^32 - first.
void sha256_search(Sequence& sequence, const DeviceBuffer<std::uint32_t>& block, std::uint32_t message_bytes,
                   std::uint32_t first, std::uint64_t count, const DeviceBuffer<std::uint32_t>& digest,
                   const DeviceBuffer<std::uint32_t>& counter, const DeviceBuffer<std::uint32_t>& winners);

// One-call form: searches, waits and returns the `capacity` smallest winners, ascending.
Sha256SearchResult sha256_search(Device& device, std::span<const std::uint8_t> message, std::uint32_t first,
                                 std::uint64_t count, std::span<const std::uint8_t> digest,
                                 std::uint32_t capacity = 64);

// The same over several devices at once, each on a thread of its own (mining_devices.hpp),
// with the same result.
Sha256SearchResult sha256_search(std::span<Device* const> devices, std::span<const std::uint8_t> message,
                                 std::uint32_t first, std::uint64_t count, std::span<const std::uint8_t> digest,
                                 std::uint32_t capacity = 64, const MiningSplit& split = {});

}  // namespace sprig::hash
