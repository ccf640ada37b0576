// Big-endian bit strings of trace-time layout, as the proof of space packs its hash inputs
// and proofs: fields of known widths appended MSB-first into 32-bit words, and fields read
// back out. Every shift is a trace-time constant, so packing costs a few shifts and ors.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sprig/dsl.hpp"

namespace sprig::pos {

// A value of up to 128 bits as four words, least significant first (metadata).
using Wide = std::array<UInt, 4>;

inline Wide wide(const UInt& low) { return {low, UInt(0u), UInt(0u), UInt(0u)}; }

class BitString {
 public:
  // The low `width` (1..32) bits of `value`, most significant first.
  void append(const UInt& value, unsigned width) {
    UInt v = width == 32 ? value : value & ((1u << width) - 1u);
    const unsigned offset = bits_ % 32;
    if (offset == 0) {
      words_.push_back(v << (32 - width));
    } else if (offset + width <= 32) {
      words_.back() = words_.back() | (v << (32 - offset - width));
    } else {
      words_.back() = words_.back() | (v >> (offset + width - 32));
      words_.push_back(v << (64 - offset - width));
    }
    bits_ += width;
  }
  // The low `width` (0..128) bits of a wide value, most significant first.
  void append(const Wide& value, unsigned width) {
    for (int w = int((width + 31) / 32) - 1; w >= 0; --w) {
      unsigned part = unsigned(w) * 32 + 32 <= width ? 32 : width - unsigned(w) * 32;
      append(value[std::size_t(w)], part);
    }
  }
  unsigned size() const { return bits_; }
  // The words, the last zero-padded.
  const std::vector<UInt>& words() const { return words_; }

 private:
  std::vector<UInt> words_;
  unsigned bits_ = 0;
};

// Bits [start, start + width) (width 1..32) of big-endian words, as a right-aligned value.
inline UInt bits_at(const std::vector<UInt>& words, unsigned start, unsigned width) {
  const unsigned q = start / 32, offset = start % 32;
  if (offset + width <= 32) {
    UInt v = offset == 0 ? words[q] : words[q] << offset;
    return width == 32 ? v : v >> (32 - width);
  }
  UInt joined = (words[q] << offset) | (words[q + 1] >> (32 - offset));
  return joined >> (32 - width);
}

// Bits [start, start + width) (width 0..128) as a wide value.
inline Wide wide_bits_at(const std::vector<UInt>& words, unsigned start, unsigned width) {
  Wide out{UInt(0u), UInt(0u), UInt(0u), UInt(0u)};
  for (unsigned w = 0; w * 32 < width; ++w) {
    unsigned part = w * 32 + 32 <= width ? 32 : width - w * 32;
    out[w] = bits_at(words, start + width - w * 32 - part, part);
  }
  return out;
}

}  // namespace sprig::pos
