// Byte strings in uint32 buffers, the convention of every hash kernel: byte k of a buffer
// is bits 8*(k%4)..8*(k%4)+7 of word k/4 (little-endian words). That is the host's own
// memory layout on x86 and ARM, so bytes copied into a std::vector<uint32_t> upload as they
// are, and digests and keystreams come back the same way (digest byte k in word k/4).
//
// Messages inside a buffer are named by byte offset and length (ByteSpan), any alignment.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "sprig/dsl.hpp"

namespace sprig::hash {

// `length` bytes starting at byte `offset` of a uint32 buffer.
struct ByteSpan {
  std::uint32_t offset;
  std::uint32_t length;
};
SPRIG_STRUCT(ByteSpan, offset, length)

// ---- host side

// Bytes packed into little-endian words; the last word is zero-padded. Never empty (a
// zero-length buffer cannot be bound), so an empty input gives one zero word.
std::vector<std::uint32_t> pack_bytes(std::span<const std::uint8_t> bytes);
std::vector<std::uint32_t> pack_bytes(std::string_view text);

// Spans of `count` messages of `length` bytes stored back to back from byte 0.
std::vector<ByteSpan> back_to_back_spans(std::size_t count, std::uint32_t length);

// The first `count` bytes held by little-endian words.
std::vector<std::uint8_t> unpack_bytes(std::span<const std::uint32_t> words, std::size_t count);

// ---- device side

// The low `count` bytes of a little-endian word kept, the others zeroed; count is 0..4.
inline UInt keep_low_bytes(const UInt& word, const UInt& count) {
  // (1 << 32) would be 1 (shift counts are taken modulo 32), so a full word is a select.
  UInt mask =
      select(count >= 4u, UInt(~0u), (UInt(1u) << (count * 8u)) - 1u);
  return word & mask;
}

// How many of the 4 bytes at message position `pos` lie before `length`: 0..4.
inline UInt bytes_before(const UInt& length, const UInt& pos) {
  return select(length > pos, min(length - pos, 4u), UInt(0u));
}

// Reads bytes of a message held in a uint32 buffer: word_at(p) is message bytes p..p+3 as a
// little-endian word, for any byte position p (a multiple of 4 in the hash kernels, but the
// message itself may start at any byte). Bytes past the message are whatever the buffer
// holds there; callers mask them. Reads are clamped to the buffer, so a read past its end
// is never out of bounds (the buffer must not be empty).
template <class Buffer>
class BufferBytes {
 public:
  // `aligned`: the caller knows at trace time that `offset` is a multiple of 4, which
  // saves the second load and the funnel shift.
  BufferBytes(const Buffer& words, const UInt& offset, bool aligned = false)
      : words_(words), offset_(offset), aligned_(aligned), last_(words.size() - 1u) {}

  UInt word_at(const UInt& pos) const {
    UInt byte = offset_ + pos;
    UInt index = byte >> 2u;
    if (aligned_) return words_[min(index, last_)].load();
    UInt lo = words_[min(index, last_)].load();
    UInt hi = words_[min(index + 1u, last_)].load();
    UInt shift = (byte & 3u) * 8u;
    // hi << (32 - shift) without a shift by 32: two shifts that give 0 when shift == 0.
    return (lo >> shift) | ((hi << 1u) << (31u - shift));
  }
  UInt operator()(const UInt& pos) const { return word_at(pos); }
  // Message bytes pos..pos+63 as 16 words (a hash block).
  std::array<UInt, 16> block64(const UInt& pos) const {
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      return std::array<UInt, 16>{word_at(pos + std::uint32_t(J * 4))...};
    }(std::make_index_sequence<16>{});
  }

 private:
  Buffer words_;
  UInt offset_;
  bool aligned_;
  UInt last_;
};

template <class Buffer>
BufferBytes<Buffer> buffer_bytes(const Buffer& words, const UInt& offset, bool aligned = false) {
  return BufferBytes<Buffer>(words, offset, aligned);
}

// The bytes of a little-endian word in the opposite order (for big-endian hashes).
inline UInt big_endian(const UInt& le_word) { return byte_swap(le_word); }

}  // namespace sprig::hash
