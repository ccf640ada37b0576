// Batched scrypt (RFC 7914) on a device, N, r and p chosen at run time, every step on the
// device:
//
//   hash::scrypt(device, data, password_spans, salt_spans, {N, r, p}, dk_bytes, out);
//   hash::scrypt(device, data, passwords, salts, {16384, 8, 1}, 64, out, {ScryptLayout::Contiguous, true});
//
// Output i is `dk_bytes` bytes in words i*W .. i*W+W-1 of `out`, W = ceil(dk_bytes / 4)
// (bytes past dk_bytes in the last word are the next bytes of the derived stream). Three
// kinds of launch per round of hashes: expand (B = PBKDF2-HMAC-SHA-256(P, S, 1, 128 r p),
// one invocation per lane, straight into block 0 of the scratch: V[0], or X slot 0 where
// ROMix keeps X in registers), ROMix (scrypt_romix.hpp, in as many launches
// as the loop budget needs), and finish (PBKDF2(P, B', 1, dk_bytes), one invocation per
// 32-byte output block). Batches larger than the scratch memory run in rounds: in waves of
// one round per scratch set (ScryptOptions::scratch_bytes), the sets' launches side by side.
#pragma once

#include <stdexcept>
#include <string>

#include "sprig/stdlib/hash/hmac_pbkdf2_batch.hpp"
#include "sprig/stdlib/hash/scrypt_romix.hpp"

namespace sprig::hash {

namespace detail {

// Writes B, the PBKDF2 expansion of the lane's password and salt, as block 0 of `lane` in
// `v` (V, or X where v_at's block count is 2; scrypt_expand_target): lane
// k of a hash takes PBKDF2 output blocks 4rk+1 .. 4rk+4r (128 r bytes).
template <class VBuffer, class Salt>
void scrypt_expand_lane(const VBuffer& v, const ScryptScratchIndex& v_at, const UInt& lane,
                        const HmacSha256Key& key, const Salt& salt, const UInt& salt_length,
                        const UInt& r, const UInt& k) {
  for_(0u, r * 4u, [&](UInt b) {
    Sha256State t = sha256_digest_words(pbkdf2_hmac_sha256_first(key, salt, salt_length, k * r * 4u + b + 1u));
    for (std::uint32_t j = 0; j < 8; ++j) v[v_at(lane, 0u, b * 8u + j)] = t[j];
  });
}

// B' (the p lanes' X slot 0 of hash `hash`, 128 r p bytes) as a byte source: bytes q..q+3 as
// a little-endian word, q a multiple of 4; reads past the end are clamped.
template <class XBuffer>
auto scrypt_mixed_bytes(const XBuffer& x, const ScryptScratchIndex& x_at,
                               const UInt& hash, const UInt& r,
                               const UInt& p) {
  return [=](const UInt& q) {
    UInt block_words = r * 32u;
    UInt word = min(q >> 2u, block_words * p - 1u);
    return x[x_at(hash * p + word / block_words, 0u, word % block_words)].load();
  };
}

// Output block `block` (0-based) of PBKDF2(P, B', 1, ...) of hash `hash`, as buffer words.
template <class XBuffer>
Sha256State scrypt_finish_block(const XBuffer& x, const ScryptScratchIndex& x_at,
                                       const HmacSha256Key& key, const UInt& hash,
                                       const UInt& r, const UInt& p,
                                       const UInt& block) {
  auto mixed = scrypt_mixed_bytes(x, x_at, hash, r, p);
  return sha256_digest_words(pbkdf2_hmac_sha256_first(key, mixed, r * p * 128u, block + 1u));
}

// B of every lane, into block 0 of its scratch (scrypt_expand_lane).
using ScryptExpandKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<ByteSpan>, ReadBuffer<ByteSpan>,
                                  WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt>;
const ScryptExpandKernel& scrypt_expand_kernel(ScryptLayout layout);

// The derived keys from X slot 0, one invocation per 32-byte output block.
using ScryptFinishKernel = Kernel<ReadBuffer<std::uint32_t>, ReadBuffer<ByteSpan>, ReadBuffer<std::uint32_t>,
                                  WriteBuffer<std::uint32_t>, UInt, UInt, UInt, UInt, UInt, UInt>;
const ScryptFinishKernel& scrypt_finish_kernel(ScryptLayout layout);

// The finish kernel hashes the 128 r p bytes of B' in one invocation: on lavapipe that must
// stay within the loop budget too. (The expand kernel's 4r PBKDF2 blocks of the user's salt
// stay within it for salts below about 2^20 / r bytes.)
void check_scrypt_pbkdf2_loops(const char* what, const DeviceInfo& info, const ScryptParams& params);

}  // namespace detail

// Records scrypt(password i, salt i, N, r, p, dk_bytes) of every pair into `out`. The scratch
// memory (V and X) is allocated on `device`.
void scrypt(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
            const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
            const ScryptParams& params, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out,
            const ScryptOptions& options = {});

// One-call form: run on `device` and wait.
void scrypt(Device& device, const DeviceBuffer<std::uint32_t>& data, const DeviceBuffer<ByteSpan>& password_spans,
            const DeviceBuffer<ByteSpan>& salt_spans, const ScryptParams& params, std::uint32_t dk_bytes,
            const DeviceBuffer<std::uint32_t>& out, const ScryptOptions& options = {});

}  // namespace sprig::hash
