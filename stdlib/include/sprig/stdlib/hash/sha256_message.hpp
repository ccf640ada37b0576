// SHA-256 of whole messages as device functions: the padding (FIPS 180-4 section 5.1.1)
// and the block loop around sha256_compress.
//
// A message is given by a byte source: a callable `UInt(UInt p)` returning message bytes
// p..p+3 as a little-endian word (BufferBytes is one; HMAC and PBKDF2 compose others). Its
// length is either a device value (any message; one block loop, every word masked) or a
// trace-time constant (the padding folds away at trace time: the fast path for fixed-length
// batches). `prefix_bytes` counts bytes already absorbed into `initial` (HMAC's key block),
// so the length field covers them too. Messages are below 2^32 bytes.
#pragma once

#include "sprig/stdlib/hash/byte_words.hpp"
#include "sprig/stdlib/hash/sha256_compress.hpp"
#include "sprig/stdlib/hash/word_vars.hpp"

namespace sprig::hash {

namespace detail {

// Big-endian word of the padded message at byte position p (a multiple of 4), before the
// length field: message bytes below `length`, then 0x80, then zeros.
template <class Source>
UInt sha256_padded_word(const Source& source, const UInt& length,
                                       const UInt& p) {
  UInt kept = bytes_before(length, p);
  UInt message = byte_swap(keep_low_bytes(source(p), kept));
  // The 0x80 byte is big-endian byte (length - p) of this word when p <= length < p + 4.
  UInt marker = select(kept < 4u && length >= p, UInt(0x80000000u) >> ((length - p) * 8u), UInt(0u));
  return message | marker;
}

}  // namespace detail

// The state after hashing `length` bytes (a device value) from `source`, padding and
// length field included; the digest is the result's words, big-endian. `add` adds
// (hash_adds.hpp).
template <class Source>
Sha256State sha256_message(const Source& source, const UInt& length, std::uint32_t prefix_bytes = 0,
                           const Sha256State& initial = sha256_initial_state(), const HashAdder& add = {}) {
  WordVars<8> state(initial);
  UInt total = length + prefix_bytes;
  UInt bits_hi = total >> 29u, bits_lo = total << 3u;
  UInt blocks = (length + 8u) / 64u + 1u;  // the message, the 0x80 byte and the 8-byte length
  // Every block masks its words: one compression in the code instead of a full-block loop
  // and a tail (a fixed-length batch gets the unmasked layout from the overload below).
  for_(0u, blocks, [&](UInt b) {
    Sha256Block block = zero_words<16>();
    for (std::uint32_t j = 0; j < 16; ++j) block[j] = detail::sha256_padded_word(source, length, b * 64u + j * 4u);
    Bool last = b + 1u == blocks;
    block[14] = select(last, bits_hi, block[14]);
    block[15] = select(last, bits_lo, block[15]);
    state.store(sha256_compress(state.load(), block, add));
  });
  return state.load();
}

// The same for a length known at trace time: full blocks read unmasked words, and the
// padding of the last one or two blocks is decided at trace time.
template <class Source>
Sha256State sha256_message(const Source& source, std::uint32_t length, std::uint32_t prefix_bytes = 0,
                           const Sha256State& initial = sha256_initial_state(), const HashAdder& add = {}) {
  std::uint32_t full_blocks = length / 64;
  auto full_block = [&](const UInt& base) {
    Sha256Block block = zero_words<16>();
    for (std::uint32_t j = 0; j < 16; ++j) block[j] = byte_swap(source(base + j * 4u));
    return block;
  };
  Sha256State state = initial;
  if (full_blocks <= 2) {  // short messages: no loop at all
    for (std::uint32_t b = 0; b < full_blocks; ++b) state = sha256_compress(state, full_block(UInt(b * 64u)), add);
  } else {
    WordVars<8> vars(initial);
    for_(0u, full_blocks, [&](UInt b) { vars.store(sha256_compress(vars.load(), full_block(b * 64u), add)); });
    state = vars.load();
  }
  std::uint32_t rest = length % 64, base = full_blocks * 64;
  std::uint32_t tail_blocks = rest + 9 <= 64 ? 1 : 2;
  std::uint64_t bits = (std::uint64_t(length) + prefix_bytes) * 8;
  for (std::uint32_t t = 0; t < tail_blocks; ++t) {
    Sha256Block block = zero_words<16>();
    for (std::uint32_t j = 0; j < 16; ++j) {
      std::uint32_t p = t * 64 + j * 4;  // relative to `base`
      if (p + 4 <= rest) {
        block[j] = byte_swap(source(UInt(base + p)));
      } else if (p < rest) {
        std::uint32_t kept = rest - p;
        UInt mask = UInt((1u << (8 * kept)) - 1u);
        block[j] = byte_swap(source(UInt(base + p)) & mask) | (0x80000000u >> (8 * kept));
      } else if (p == rest) {
        block[j] = UInt(0x80000000u);
      }
    }
    if (t + 1 == tail_blocks) {
      block[14] = UInt(std::uint32_t(bits >> 32));
      block[15] = UInt(std::uint32_t(bits));
    }
    state = sha256_compress(state, block, add);
  }
  return state;
}

// The state after hashing a 32-byte digest (given as its state words) that follows
// `prefix_bytes` already absorbed bytes: one block with a constant tail. Double SHA-256
// and HMAC's outer hash.
inline Sha256State sha256_of_digest(const Sha256State& digest, std::uint32_t prefix_bytes = 0,
                                    const Sha256State& initial = sha256_initial_state(), const HashAdder& add = {}) {
  Sha256Block block = zero_words<16>();
  for (int i = 0; i < 8; ++i) block[i] = digest[i];
  block[8] = UInt(0x80000000u);
  block[15] = UInt((prefix_bytes + 32u) * 8u);
  return sha256_compress(initial, block, add);
}

// A state's digest as little-endian buffer words (digest byte k in word k/4).
inline Sha256State sha256_digest_words(const Sha256State& state) {
  Sha256State out = state;
  for (auto& w : out) w = byte_swap(w);
  return out;
}

}  // namespace sprig::hash
