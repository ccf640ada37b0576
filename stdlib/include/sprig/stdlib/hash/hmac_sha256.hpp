// HMAC-SHA-256 (RFC 2104, FIPS 198-1) as device functions. The key is absorbed once into
// the inner and outer states (the key block XOR ipad / opad, each one compression), so a
// kernel that MACs many messages under one key — PBKDF2 above all — pays two compressions
// per 32-byte message instead of four.
#pragma once

#include "sprig/stdlib/hash/sha256_message.hpp"

namespace sprig::hash {

// The states after the key block XOR ipad (inner) and XOR opad (outer).
struct HmacSha256Key {
  Sha256State inner;
  Sha256State outer;
};

// The HMAC key states of `key_length` bytes (a device value) from `source`; keys longer
// than the 64-byte block are hashed first, as the standard says.
template <class Source>
HmacSha256Key hmac_sha256_key(const Source& key, const UInt& key_length) {
  WordVars<16> block(zero_words<16>());  // the key block, big-endian words
  if_(key_length > 64u, [&] {
    Sha256State digest = sha256_message(key, key_length);
    for (int j = 0; j < 8; ++j) block[j] = digest[j];
  }).else_([&] {
    for (std::uint32_t j = 0; j < 16; ++j) {
      UInt p(j * 4u);
      block[j] = byte_swap(keep_low_bytes(key(p), bytes_before(key_length, p)));
    }
  });
  Sha256Block inner = block.load(), outer = inner;
  for (int j = 0; j < 16; ++j) {
    inner[j] = inner[j] ^ 0x36363636u;
    outer[j] = outer[j] ^ 0x5c5c5c5cu;
  }
  return {sha256_compress(sha256_initial_state(), inner), sha256_compress(sha256_initial_state(), outer)};
}

// HMAC of `length` bytes (a device value) from `source`; the MAC is the result's words,
// big-endian (sha256_digest_words gives buffer words).
template <class Source>
Sha256State hmac_sha256(const HmacSha256Key& key, const Source& message, const UInt& length) {
  Sha256State inner = sha256_message(message, length, 64, key.inner);
  return sha256_of_digest(inner, 64, key.outer);
}

// HMAC of a 32-byte message given as state words (an earlier MAC or digest): two
// compressions with constant padding.
inline Sha256State hmac_sha256_of_digest(const HmacSha256Key& key, const Sha256State& digest) {
  return sha256_of_digest(sha256_of_digest(digest, 64, key.inner), 64, key.outer);
}

}  // namespace sprig::hash
