// PBKDF2-HMAC-SHA-256 (RFC 8018 section 5.2) as a device function: one 32-byte output
// block T_i = U_1 ^ ... ^ U_c with U_1 = HMAC(P, S || INT(i)) and U_j = HMAC(P, U_{j-1}).
// Blocks are independent, so batched kernels give each (input, block) its own invocation.
#pragma once

#include "sprig/stdlib/hash/hmac_sha256.hpp"

namespace sprig::hash {

namespace detail {

// The bytes of `salt` (salt_length bytes) followed by the 4 bytes `tail_le` (a little-endian
// word holding them in order), as a byte source.
template <class Source>
auto append_word(const Source& salt, const UInt& salt_length, const UInt& tail_le) {
  return [=](const UInt& p) {
    UInt salt_word = keep_low_bytes(salt(p), bytes_before(salt_length, p));
    // The tail starts salt_length - p bytes into this word, or ended p - salt_length bytes
    // into the previous one; shift counts of 0..3 bytes only.
    Bool starts_here = salt_length >= p && salt_length - p < 4u;
    Bool spills_here = p > salt_length && p - salt_length < 4u;
    UInt head = select(starts_here, tail_le << ((salt_length - p) * 8u), UInt(0u));
    UInt spill = select(spills_here, tail_le >> ((p - salt_length) * 8u), UInt(0u));
    return salt_word | head | spill;
  };
}

}  // namespace detail

// U_1 of output block `index` (1-based): HMAC(P, S || INT(index)), for the password whose
// HMAC key states are `key` and `salt_length` bytes of salt from `salt`.
template <class Source>
Sha256State pbkdf2_hmac_sha256_first(const HmacSha256Key& key, const Source& salt,
                                     const UInt& salt_length, const UInt& index) {
  auto salted = detail::append_word(salt, salt_length, byte_swap(index));  // INT(i) is big-endian
  return hmac_sha256(key, salted, salt_length + 4u);
}

// Runs `count` more iterations on the running pair (u = U_j, t = U_1 ^ ... ^ U_j), in place.
inline void pbkdf2_hmac_sha256_iterate(const HmacSha256Key& key, const WordVars<8>& u, const WordVars<8>& t,
                                       const UInt& count) {
  for_(0u, count, [&](UInt) {
    Sha256State next = hmac_sha256_of_digest(key, u.load());
    Sha256State sum = t.load();
    for (int j = 0; j < 8; ++j) sum[j] = sum[j] ^ next[j];
    u.store(next);
    t.store(sum);
  });
}

// Output block `index` (1-based) of PBKDF2-HMAC-SHA-256 with `iterations` >= 1: T_index.
// The result's words are big-endian (sha256_digest_words gives buffer words).
//
// lavapipe ends every loop of a shader invocation after 65535 back-edges in all (Mesa's
// LP_MAX_TGSI_LOOP_ITERATIONS, shared by all loops of a function), so on lavapipe one call
// covers fewer than 65535 iterations; pbkdf2_hmac_sha256 (hmac_pbkdf2_batch.hpp) splits
// longer runs over several launches with pbkdf2_hmac_sha256_iterate.
template <class Source>
Sha256State pbkdf2_hmac_sha256_block(const HmacSha256Key& key, const Source& salt,
                                     const UInt& salt_length, const UInt& index,
                                     const UInt& iterations) {
  Sha256State first = pbkdf2_hmac_sha256_first(key, salt, salt_length, index);
  WordVars<8> u(first), t(first);
  pbkdf2_hmac_sha256_iterate(key, u, t, iterations - 1u);
  return t.load();
}

}  // namespace sprig::hash
