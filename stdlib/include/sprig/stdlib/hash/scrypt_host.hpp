// scrypt (RFC 7914) of host passwords and salts in one call, on any sprig::Device, through
// the kernels of scrypt_batch.hpp:
//
//   std::vector<std::uint8_t> key = hash::scrypt(device, "password", "NaCl", {1024, 8, 16}, 64);
//   auto keys = hash::scrypt_batch(device, passwords, salts, {16384, 8, 1}, 32);
//
// Passwords and salts may have any lengths; pair i is (passwords[i], salts[i]). Invalid
// parameters (N not a power of two above 1, N >= 2^(16 r), r or p zero, r p >= 2^30, a
// hash whose scratch memory exceeds one buffer) throw std::invalid_argument naming them.
// The batch form also takes several devices (batch_devices.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sprig/runtime/device.hpp"
#include "sprig/stdlib/hash/batch_devices.hpp"
#include "sprig/stdlib/hash/byte_view.hpp"
#include "sprig/stdlib/hash/scrypt_batch.hpp"

namespace sprig::hash {

// scrypt(passwords[i], salts[i], N, r, p, dk_bytes) of every pair, in order.
std::vector<std::vector<std::uint8_t>> scrypt_batch(Device& device, const ByteViews& passwords, const ByteViews& salts,
                                                    const ScryptParams& params, std::uint32_t dk_bytes = 64,
                                                    const ScryptOptions& options = {});

// The same over several devices at once (batch_devices.hpp), with the same keys. By default
// device i takes scrypt_waves_per_batch waves of its own (scrypt_plan) at a time, and no
// more than an even share of two batches per device.
std::vector<std::vector<std::uint8_t>> scrypt_batch(std::span<Device* const> devices, const ByteViews& passwords,
                                                    const ByteViews& salts, const ScryptParams& params,
                                                    std::uint32_t dk_bytes = 64, const ScryptOptions& options = {},
                                                    const BatchSplit& split = {});

// scrypt(password, salt, N, r, p, dk_bytes): the derived key's dk_bytes bytes.
std::vector<std::uint8_t> scrypt(Device& device, ByteView password, ByteView salt, const ScryptParams& params,
                                 std::uint32_t dk_bytes = 64, const ScryptOptions& options = {});

}  // namespace sprig::hash
