// How the interpreter holds one scalar of a lane: a 64-bit word. Integers sit in the low
// bits (readers truncate, so what is above does not matter), floats as their bit pattern,
// bools as 0/1. Every handler reads and writes words through get<T>/put<T>.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sprig/dsl/types.hpp"

namespace sprig::sim {

using Word = std::uint64_t;

template <class T>
inline T get(Word w) {
  if constexpr (std::is_same_v<T, bool>) return (w & 1) != 0;
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(std::uint32_t(w));
  else return T(w);
}

template <class T>
inline Word put(T v) {
  if constexpr (std::is_same_v<T, bool>) return v ? 1 : 0;
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<std::uint32_t>(v);
  else if constexpr (sizeof(T) == 4) return std::uint32_t(v);
  else return std::uint64_t(v);
}

// Calls f.template operator()<T>() with T the C++ type of `k`.
template <class F>
decltype(auto) with_scalar_type(ir::ScalarKind k, F&& f) {
  switch (k) {
    case ir::ScalarKind::Bool: return f.template operator()<bool>();
    case ir::ScalarKind::I32: return f.template operator()<std::int32_t>();
    case ir::ScalarKind::U32: return f.template operator()<std::uint32_t>();
    case ir::ScalarKind::F32: return f.template operator()<float>();
    case ir::ScalarKind::I64: return f.template operator()<std::int64_t>();
    case ir::ScalarKind::U64: break;
  }
  return f.template operator()<std::uint64_t>();
}

// Bytes a scalar occupies in memory (bools are 32-bit).
inline std::uint32_t memory_bytes(ir::ScalarKind k) {
  return k == ir::ScalarKind::I64 || k == ir::ScalarKind::U64 ? 8 : 4;
}

// A scalar read from / written to memory in its memory representation.
inline Word read_scalar(const std::byte* p, ir::ScalarKind k) {
  if (memory_bytes(k) == 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return k == ir::ScalarKind::Bool ? Word(v != 0) : Word(v);
}

inline void write_scalar(std::byte* p, ir::ScalarKind k, Word w) {
  if (memory_bytes(k) == 8) {
    std::memcpy(p, &w, 8);
    return;
  }
  std::uint32_t v = k == ir::ScalarKind::Bool ? std::uint32_t(w & 1) : std::uint32_t(w);
  std::memcpy(p, &v, 4);
}

}  // namespace sprig::sim
