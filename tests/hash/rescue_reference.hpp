// A plain C++ reference of the Goldilocks field and Rescue Prime Rp64_256, written for the
// tests independently of the DSL code (128-bit products, % for reduction, square-and-multiply
// for the inverse S-box): the oracle the device results are compared with.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sprig/stdlib/hash/rescue_constants.hpp"

namespace rescue_ref {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

inline constexpr u64 p = 0xffffffff00000001ull;

inline u64 reduce(u64 x) { return x % p; }
inline u64 add(u64 a, u64 b) { return u64((u128(a % p) + (b % p)) % p); }
inline u64 sub(u64 a, u64 b) { return u64((u128(a % p) + p - (b % p)) % p); }
inline u64 mul(u64 a, u64 b) { return u64((u128(a) * b) % p); }
inline u64 pow(u64 x, u64 e) {
  u64 result = 1;
  x %= p;
  for (; e != 0; e >>= 1) {
    if (e & 1) result = mul(result, x);
    x = mul(x, x);
  }
  return result;
}

using State = std::array<u64, 12>;
using Digest = std::array<u64, 4>;

inline void mds(State& s) {
  State out{};
  for (std::size_t i = 0; i < 12; ++i) {
    u128 acc = 0;
    for (std::size_t j = 0; j < 12; ++j) acc += u128(sprig::hash::rescue::mds(i, j)) * s[j];
    out[i] = u64(acc % p);
  }
  s = out;
}

inline void permute(State& s) {
  using namespace sprig::hash::rescue;
  for (std::size_t r = 0; r < rounds; ++r) {
    for (auto& x : s) x = pow(x, alpha);
    mds(s);
    for (std::size_t i = 0; i < 12; ++i) s[i] = add(s[i], ark1[r][i]);
    for (auto& x : s) x = pow(x, inverse_alpha);
    mds(s);
    for (std::size_t i = 0; i < 12; ++i) s[i] = add(s[i], ark2[r][i]);
  }
}

inline Digest digest_of(const State& s) { return {s[4], s[5], s[6], s[7]}; }

inline Digest hash_elements(const std::vector<u64>& elements) {
  State s{};
  s[0] = elements.size() % p;
  std::size_t i = 0;
  for (u64 e : elements) {
    s[4 + i] = add(s[4 + i], e);
    if (++i == 8) {
      permute(s);
      i = 0;
    }
  }
  if (i > 0) permute(s);
  return digest_of(s);
}

inline Digest merge(const Digest& a, const Digest& b) {
  State s{};
  s[0] = 8;
  for (std::size_t i = 0; i < 4; ++i) {
    s[4 + i] = a[i] % p;
    s[8 + i] = b[i] % p;
  }
  permute(s);
  return digest_of(s);
}

// A digest as the 8 little-endian words the device buffers hold (element i at words 2i, 2i+1).
inline std::array<std::uint32_t, 8> words_of(const Digest& d) {
  std::array<std::uint32_t, 8> w{};
  for (std::size_t i = 0; i < 4; ++i) {
    w[2 * i] = std::uint32_t(d[i]);
    w[2 * i + 1] = std::uint32_t(d[i] >> 32);
  }
  return w;
}

inline Digest digest_of_words(const std::uint32_t* w) {
  Digest d{};
  for (std::size_t i = 0; i < 4; ++i) d[i] = u64(w[2 * i]) | (u64(w[2 * i + 1]) << 32);
  return d;
}

}  // namespace rescue_ref
