// A Litecoin-style mining search with scrypt: for every nonce of a range, the 80-byte block
// header with that nonce in bytes 76..79 (little-endian) is hashed with scrypt(password =
// salt = header, N, r, p, dkLen = 32), and the nonce wins when the hash, read as a
// little-endian 256-bit number, is at most the target. Only winners leave the device: they
// are appended through an atomic counter to a buffer of fixed capacity.
//
//   auto result = hash::scrypt_search(device, header, first_nonce, count,
//                                     hash::scrypt_target_from_bits(0x1e0ffff0));
//
// Litecoin itself uses N = 1024, r = 1, p = 1 (the defaults here).
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "sprig/stdlib/hash/mining_devices.hpp"
#include "sprig/stdlib/hash/mining_target.hpp"
#include "sprig/stdlib/hash/scrypt_batch.hpp"

namespace sprig::hash {

using ScryptSearchResult = MiningSearchResult;

// The target a header's compact "bits" field encodes (mining_target.hpp).
inline std::array<std::uint32_t, 8> scrypt_target_from_bits(std::uint32_t bits) { return target_from_bits(bits); }

namespace detail {

// The header with `nonce` in bytes 76..79 as a byte source (reads past byte 80 clamp).
template <class HeaderBuffer>
auto header_with_nonce(const HeaderBuffer& header, const UInt& nonce) {
  return [=](const UInt& q) {
    UInt word = min(q >> 2u, 19u);
    return select(word == 19u, nonce, header[word].load());
  };
}

// The expansion and finish kernels of the search: the password and salt are the header with
// the lane's nonce; the finish keeps hashes at most the target.
using ScryptSearchExpandKernel =
    Kernel<ReadBuffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt>;
const ScryptSearchExpandKernel& scrypt_search_expand_kernel(ScryptLayout layout);

using ScryptSearchFinishKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>, ReadBuffer<std::uint32_t>,
                                        Buffer<std::uint32_t>, WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt>;
const ScryptSearchFinishKernel& scrypt_search_finish_kernel(ScryptLayout layout);

// Waves (scrypt_plan.hpp: the hashes a device keeps in flight) per chunk over several
// devices by default: a wave fills a device, so a few keep the per-chunk allocation and
// read-back small beside the hashing.
inline constexpr std::uint32_t scrypt_waves_per_chunk = 4;

}  // namespace detail

// Scans nonces [first_nonce, first_nonce + count) of `header` (80 bytes; its bytes 76..79
// are ignored) for scrypt hashes at most `target`, keeping the `capacity` smallest winners.
// count is below 2^32 and the range must not pass nonce 2^32 - 1.
ScryptSearchResult scrypt_search(Device& device, std::span<const std::uint8_t> header, std::uint32_t first_nonce,
                                 std::uint64_t count, const std::array<std::uint32_t, 8>& target,
                                 const ScryptParams& params = {1024, 1, 1}, std::uint32_t capacity = 64,
                                 const ScryptOptions& options = {});

// The same over several devices at once, each on a thread of its own (mining_devices.hpp),
// with the same result.
ScryptSearchResult scrypt_search(std::span<Device* const> devices, std::span<const std::uint8_t> header,
                                 std::uint32_t first_nonce, std::uint64_t count,
                                 const std::array<std::uint32_t, 8>& target, const ScryptParams& params = {1024, 1, 1},
                                 std::uint32_t capacity = 64, const ScryptOptions& options = {},
                                 const MiningSplit& split = {});

}  // namespace sprig::hash
