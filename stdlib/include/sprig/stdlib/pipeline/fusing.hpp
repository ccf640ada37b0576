// The element-wise stages (map, enumerate, take, drop) applied to one element in
// registers, as the fused kernels trace them. take/drop only ever cut a prefix or a suffix
// off a chunk, so they need no compaction: the kernel tracks the uniform count and each
// element's rank. Stream counters (elements that reached a stage in earlier chunks) live
// in small device buffers, double-buffered by chunk parity.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "sprig/stdlib/pipeline/stages.hpp"

namespace sprig::gpu::detail {

template <class S>
struct uses_state : std::false_type {};
template <>
struct uses_state<Take> : std::true_type {};
template <>
struct uses_state<Drop> : std::true_type {};
template <class F>
struct uses_state<Enumerate<F>> : std::true_type {};

// Trace-time context of the fused kernel: the element's rank among the survivors so far,
// the chunk's surviving count (uniform), and the per-stage stream counters.
struct Fusing {
  UInt i, rank, count;
  Bool valid;
  const ReadBuffer<std::uint32_t>* limits;
  const ReadBuffer<std::uint32_t>* state_in;
  const WriteBuffer<std::uint32_t>* state_out;
  std::uint32_t slot = 0;

  // Elements that reached stage `slot` in earlier chunks; records this chunk's arrivals.
  UInt arrive() {
    UInt passed = (*state_in)[slot];
    UInt reached = passed + count;
    const WriteBuffer<std::uint32_t>& out = *state_out;
    std::uint32_t s = slot;
    if_(i == 0u, [&] { out[s] = reached; });
    return passed;
  }
  // Of `count` arriving elements, how many lie before position `limit` of the stream.
  UInt before_limit(const UInt& passed) {
    UInt limit = (*limits)[slot];
    return select(limit > passed, min(limit - passed, count), UInt(0u));
  }
};

template <class T, class F>
auto apply_stage(const Map<F>&, const Expr<T>& v, Fusing&) {
  return F{}(v);
}
template <class T, class F>
auto apply_stage(const Enumerate<F>&, const Expr<T>& v, Fusing& s) {
  UInt passed = s.arrive();
  auto result = F{}(passed + s.rank, v);
  ++s.slot;
  return result;
}
// Only in a filter's kernel (filter_kernel.hpp), where nothing after it needs the rank.
template <class T, class P>
Expr<T> apply_stage(const Filter<P>&, const Expr<T>& v, Fusing& s) {
  s.valid = s.valid && P{}(v);
  return v;
}
template <class T>
Expr<T> apply_stage(const Take&, const Expr<T>& v, Fusing& s) {
  UInt kept = s.before_limit(s.arrive());
  s.valid = s.valid && s.rank < kept;
  s.count = kept;
  ++s.slot;
  return v;
}
template <class T>
Expr<T> apply_stage(const Drop&, const Expr<T>& v, Fusing& s) {
  UInt dropped = s.before_limit(s.arrive());
  s.valid = s.valid && s.rank >= dropped;
  s.rank = s.rank - dropped;
  s.count = s.count - dropped;
  ++s.slot;
  return v;
}

template <std::size_t I, class T, class Tuple, class Done>
void fuse(const Tuple& stages, const Expr<T>& v, Fusing& s, Done&& done) {
  if constexpr (I == std::tuple_size_v<Tuple>) {
    done(v);
  } else {
    auto next = apply_stage(std::get<I>(stages), v, s);
    fuse<I + 1>(stages, next, s, done);
  }
}

inline std::uint32_t clamp_limit(std::uint64_t n) { return std::uint32_t(std::min<std::uint64_t>(n, 0xFFFFFFFFu)); }

}  // namespace sprig::gpu::detail
