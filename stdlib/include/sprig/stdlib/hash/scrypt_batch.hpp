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

inline const auto& scrypt_expand_kernel(ScryptLayout layout) {
  std::string name = std::string("scrypt_expand_") + scrypt_layout_name(layout);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> passwords, ReadBuffer<ByteSpan> salts,
            WriteBuffer<std::uint32_t> v, UInt r, UInt n, UInt p,
            UInt lanes, UInt first_hash) {
          UInt lane = global_id().x();
          if_(lane < lanes, [&] {
            UInt hash = first_hash + lane / p;
            Expr<ByteSpan> password = passwords[hash], salt = salts[hash];
            HmacSha256Key key =
                hmac_sha256_key(buffer_bytes(data, password[&ByteSpan::offset]), password[&ByteSpan::length]);
            ScryptScratchIndex v_at{layout, r * 32u, n, lanes};
            scrypt_expand_lane(v, v_at, lane, key, buffer_bytes(data, salt[&ByteSpan::offset]),
                               salt[&ByteSpan::length], r, lane % p);
          });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

inline const auto& scrypt_finish_kernel(ScryptLayout layout) {
  std::string name = std::string("scrypt_finish_") + scrypt_layout_name(layout);
  auto trace = [=] {
    return kernel(
        name,
        [=](ReadBuffer<std::uint32_t> data, ReadBuffer<ByteSpan> passwords, ReadBuffer<std::uint32_t> x,
            WriteBuffer<std::uint32_t> out, UInt r, UInt p,
            UInt hashes, UInt first_hash, UInt out_words,
            UInt blocks) {
          UInt g = global_id().x();
          UInt hash = g / blocks, block = g % blocks;
          if_(hash < hashes, [&] {
            Expr<ByteSpan> password = passwords[first_hash + hash];
            HmacSha256Key key =
                hmac_sha256_key(buffer_bytes(data, password[&ByteSpan::offset]), password[&ByteSpan::length]);
            ScryptScratchIndex x_at{layout, r * 32u, UInt(2u), hashes * p};
            Sha256State words = scrypt_finish_block(x, x_at, key, hash, r, p, block);
            for (std::uint32_t j = 0; j < 8; ++j) {
              UInt word = block * 8u + j;
              if_(word < out_words, [&] { out[(first_hash + hash) * out_words + word] = words[j]; });
            }
          });
        },
        workgroup(scrypt_workgroup));
  };
  return sprig::detail::cached_kernel<decltype(trace())>(name, trace);
}

// The finish kernel hashes the 128 r p bytes of B' in one invocation: on lavapipe that must
// stay within the loop budget too. (The expand kernel's 4r PBKDF2 blocks of the user's salt
// stay within it for salts below about 2^20 / r bytes.)
inline void check_scrypt_pbkdf2_loops(const char* what, const DeviceInfo& info, const ScryptParams& params) {
  if (scrypt_loops_capped(info) && 2ull * params.r * params.p + 2 > scrypt_loop_budget)
    throw std::invalid_argument(std::string(what) + ": r * p = " + std::to_string(std::uint64_t(params.r) * params.p) +
                                " is too large for " + info.name + ", which cuts loops of an invocation short");
}

}  // namespace detail

// Records scrypt(password i, salt i, N, r, p, dk_bytes) of every pair into `out`. The scratch
// memory (V and X) is allocated on `device`.
inline void scrypt(Device& device, Sequence& sequence, const DeviceBuffer<std::uint32_t>& data,
                   const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
                   const ScryptParams& params, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out,
                   const ScryptOptions& options = {}) {
  const char* what = "scrypt";
  detail::check_scrypt_params(what, params);
  if (password_spans.size() != salt_spans.size()) throw std::invalid_argument("scrypt: one salt span per password span");
  if (dk_bytes == 0) throw std::invalid_argument("scrypt: the output length must be positive");
  std::uint32_t out_words = (dk_bytes + 3) / 4, blocks = (dk_bytes + 31) / 32;
  if (out.size() < std::size_t(out_words) * password_spans.size())
    throw std::invalid_argument("scrypt: the output buffer is too small");
  const DeviceInfo& info = device.info();
  if (options.cooperative) detail::check_scrypt_cooperative(what, info);
  detail::check_scrypt_pbkdf2_loops(what, info, params);
  std::size_t count = password_spans.size();
  if (count == 0) return;
  detail::ScryptRounds rounds =
      detail::scrypt_rounds(what, info, params, count, options.cooperative ? 4 : 1, options.scratch_bytes);
  std::vector<detail::ScryptScratch> sets = detail::scrypt_scratch(device, params, rounds);
  for (std::size_t first = 0; first < count; first += rounds.per_set * rounds.sets) {
    // Each set's round packs its lanes (the scratch index uses the round's lane count).
    auto hashes_of = [&](std::size_t k) {
      std::size_t start = std::min(count, first + k * rounds.per_set);
      return std::uint32_t(std::min(rounds.per_set, count - start));
    };
    for (std::size_t k = 0; k < sets.size(); ++k) {
      sets[k].lanes = hashes_of(k) * params.p;
      if (sets[k].lanes == 0) continue;
      sequence.run(detail::scrypt_expand_kernel(options.layout), grid(sets[k].lanes), data, password_spans, salt_spans,
                   detail::scrypt_expand_target(params, sets[k]), params.r, detail::scrypt_expand_blocks(params),
                   params.p, sets[k].lanes, std::uint32_t(first + k * rounds.per_set));
    }
    detail::scrypt_romix(sequence, info, params, options, sets);
    for (std::size_t k = 0; k < sets.size(); ++k) {
      std::uint32_t hashes = hashes_of(k);
      if (hashes == 0) continue;
      sequence.run(detail::scrypt_finish_kernel(options.layout), grid(std::uint64_t(hashes) * blocks), data,
                   password_spans, sets[k].x, out, params.r, params.p, hashes,
                   std::uint32_t(first + k * rounds.per_set), out_words, blocks);
    }
  }
}

// One-call form: run on `device` and wait.
inline void scrypt(Device& device, const DeviceBuffer<std::uint32_t>& data,
                   const DeviceBuffer<ByteSpan>& password_spans, const DeviceBuffer<ByteSpan>& salt_spans,
                   const ScryptParams& params, std::uint32_t dk_bytes, const DeviceBuffer<std::uint32_t>& out,
                   const ScryptOptions& options = {}) {
  auto sequence = device.sequence();
  scrypt(device, sequence, data, password_spans, salt_spans, params, dk_bytes, out, options);
  sequence.run_and_wait();
}

}  // namespace sprig::hash
