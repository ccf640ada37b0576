// y has K + 6 bits: a word holds it up to K = 26, and at K = 27 and 28 (33 and 34 bits) it
// takes two, its low word and the bits above. Kernels are traced per K, so a K whose y fits a
// word emits exactly the one-word code; the wide path uses 32-bit operations only (no Int64),
// so every device that plots K = 26 can plot K = 27.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sprig/stdlib/pos/bit_string.hpp"
#include "sprig/stdlib/pos/params.hpp"

namespace sprig::pos {

inline constexpr bool wide_y(int k) { return y_bits(k) > 32; }
// Words of a y in a table's ys buffer: entry p at p (one word) or at 2p, 2p + 1 (low, high).
inline constexpr std::uint32_t y_words(int k) { return wide_y(k) ? 2u : 1u; }

// A y on the device: its low word, and where K's y is wide the bits above it.
struct YValue {
  UInt low;
  std::optional<UInt> high;
};

inline YValue narrow_y(const UInt& y) { return {y, std::nullopt}; }

// y = bucket * 15113 + r.
inline YValue y_of_bucket(int k, const UInt& bucket, const UInt& r) {
  UInt product = bucket * param_bc;
  if (!wide_y(k)) return {product + r, std::nullopt};
  return {product + r, mul_hi(bucket, UInt(param_bc)) + add_carry(product, r)};
}

// The bucket of y, y / 15113.
inline UInt bucket_of(const YValue& y) {
  if (!y.high) return y.low / param_bc;
  // With 2^32 = 15113 q + s: y = high (15113 q + s) + 15113 t + u, where low = 15113 t + u;
  // high s + u stays far below 2^32 (high < 4), so its quotient is the rest of the bucket.
  constexpr std::uint64_t word = std::uint64_t(1) << 32;
  constexpr auto q = std::uint32_t(word / param_bc), s = std::uint32_t(word % param_bc);
  static_assert(3ull * s + param_bc < word);
  UInt t = y.low / param_bc, u = y.low % param_bc;
  return *y.high * q + t + (*y.high * s + u) / param_bc;
}

// y's r = y mod 15113 given its bucket: the low words' difference (r < 2^32, so the borrow
// out of the low word does not matter).
inline UInt r_of(const YValue& y, const UInt& bucket) { return y.low - bucket * param_bc; }

// y >> shift (0 < shift < 32), where the result fits a word (the first K bits of a y: K <= 32).
inline UInt y_shifted(const YValue& y, unsigned shift) {
  if (!y.high) return y.low >> shift;
  return (*y.high << (32 - shift)) | (y.low >> shift);
}

template <class Ys>
YValue load_y(const Ys& ys, const UInt& p, int k) {
  if (!wide_y(k)) return {ys[p].load(), std::nullopt};
  return {ys[p * 2u].load(), ys[p * 2u + 1u].load()};
}

template <class Ys>
void store_y(const Ys& ys, const UInt& p, int k, const YValue& y) {
  if (!wide_y(k)) {
    ys[p] = y.low;
  } else {
    ys[p * 2u] = y.low;
    ys[p * 2u + 1u] = *y.high;
  }
}

// y's K + 6 bits, most significant first.
inline void append_y(BitString& bits, int k, const YValue& y) {
  if (!y.high) {
    bits.append(y.low, unsigned(y_bits(k)));
  } else {
    bits.append(*y.high, unsigned(y_bits(k) - 32));
    bits.append(y.low, 32);
  }
}

// The K + 6 bits of big-endian words from bit `start` as a y.
inline YValue y_bits_at(const std::vector<UInt>& words, unsigned start, int k) {
  const auto width = unsigned(y_bits(k));
  if (!wide_y(k)) return {bits_at(words, start, width), std::nullopt};
  return {bits_at(words, start + width - 32, 32), bits_at(words, start, width - 32)};
}

}  // namespace sprig::pos
