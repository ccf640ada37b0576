// Bytes of a message held in a uint32 buffer that is bound a second time as 4-vectors,
// for messages that start at a multiple of 16 bytes: a 64-byte block is four 16-byte loads
// instead of sixteen 4-byte ones. Where each invocation reads its own message, lanes' loads
// fall in different cache lines, and the number of load instructions is what the memory
// pipeline pays for (docs/benchmarks.md, "Hashing").
//
// The same interface as BufferBytes (byte_words.hpp): word_at(p) and block64(p), with p a
// multiple of 4 and, for block64, of 16. Reads are clamped to the buffer's last vector.
#pragma once

#include <array>
#include <utility>

#include "sprig/dsl.hpp"

namespace sprig::hash {

class VectorBytes {
 public:
  // `vectors` is the buffer as 4-vectors; `offset` (bytes) a multiple of 16.
  VectorBytes(const ReadBuffer<uvec4>& vectors, const UInt& offset)
      : vectors_(vectors), first_(offset >> 4u), last_(vectors.size() - 1u) {}

  UInt word_at(const UInt& pos) const {
    UVec4 v = vector_at(pos >> 4u);
    return v[(pos >> 2u) & 3u];
  }
  UInt operator()(const UInt& pos) const { return word_at(pos); }
  std::array<UInt, 16> block64(const UInt& pos) const {
    UInt first = pos >> 4u;
    std::array<UVec4, 4> q{vector_at(first), vector_at(first + 1u), vector_at(first + 2u), vector_at(first + 3u)};
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      return std::array<UInt, 16>{q[J / 4][int(J % 4)]...};
    }(std::make_index_sequence<16>{});
  }

 private:
  UVec4 vector_at(const UInt& index) const { return vectors_[min(first_ + index, last_)].load(); }

  ReadBuffer<uvec4> vectors_;
  UInt first_;
  UInt last_;
};

}  // namespace sprig::hash
