// The stages of a stream pipeline (map, filter, enumerate, take, drop, scan, a user kernel)
// as plain descriptors, and Stages<...>, a chain of them composed with `|` before it is
// given a source. Nothing runs here: plan.hpp turns a chain into kernels.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/operators.hpp"

namespace sprig::gpu {

namespace detail {

// The host type of the device value a DSL lambda returns (Expr<U> -> U).
template <class R>
struct expr_value;
template <class U>
struct expr_value<Expr<U>> {
  using type = U;
};
template <class R>
using expr_value_t = typename expr_value<std::remove_cvref_t<R>>::type;

// Kernels are traced once per chain type and reused: captured values would be frozen at
// the first trace, so stage lambdas must capture nothing (like stdlib operators).
template <class F>
constexpr void check_stateless() {
  static_assert(std::is_empty_v<F> && std::is_default_constructible_v<F>,
                "a gpu pipeline stage lambda must capture nothing: its kernel is traced once and reused");
}

}  // namespace detail

// out = f(in), element by element.
template <class F>
struct Map {
  template <class T>
  using output = detail::expr_value_t<std::invoke_result_t<const F&, Expr<T>>>;
  F f;
};
// Keeps the elements p accepts, in order.
template <class P>
struct Filter {
  template <class T>
  using output = T;
  using predicate_type = P;
  P p;
};
// out = f(index, in), the index counting the elements that reached this stage since the
// start of the stream (across chunks).
template <class F>
struct Enumerate {
  template <class T>
  using output = detail::expr_value_t<std::invoke_result_t<const F&, UInt, Expr<T>>>;
  F f;
};
// The first n elements / all but the first n elements that reach this stage.
struct Take {
  template <class T>
  using output = T;
  std::uint64_t n;
};
struct Drop {
  template <class T>
  using output = T;
  std::uint64_t n;
};
// Running (inclusive) fold with an associative operator, carried across chunks.
template <class Op>
struct Scan {
  template <class T>
  using output = T;
  Op op;
};
// A user kernel over one chunk: body(in, out, count) is traced into a kernel of
// `workgroup_size` invocations per workgroup, launched over the chunk (one invocation per
// element, global_id().x is the element), and must write out[i] for every i < count.
// It may use shared memory and barriers.
template <class U, class F>
struct KernelStage {
  template <class T>
  using output = U;
  F body;
  std::uint32_t workgroup_size;
};

template <class S>
struct is_map : std::false_type {};
template <class F>
struct is_map<Map<F>> : std::true_type {};
template <class S>
struct is_filter : std::false_type {};
template <class P>
struct is_filter<Filter<P>> : std::true_type {};
template <class S>
struct is_scan : std::false_type {};
template <class Op>
struct is_scan<Scan<Op>> : std::true_type {};
template <class S>
struct is_kernel_stage : std::false_type {};
template <class U, class F>
struct is_kernel_stage<KernelStage<U, F>> : std::true_type {};
// Stages that need all elements of a chunk materialised before them (they end a fused kernel).
template <class S>
constexpr bool ends_fusion = is_filter<S>::value || is_scan<S>::value || is_kernel_stage<S>::value;

// A chain of stages, applied left to right.
template <class... S>
struct Stages {
  std::tuple<S...> stages;
};

template <class... A, class... B>
Stages<A..., B...> operator|(Stages<A...> a, Stages<B...> b) {
  return {std::tuple_cat(std::move(a.stages), std::move(b.stages))};
}

template <class F>
Stages<Map<F>> map(F f) {
  detail::check_stateless<F>();
  return {{Map<F>{f}}};
}
template <class P>
Stages<Filter<P>> filter(P p) {
  detail::check_stateless<P>();
  return {{Filter<P>{p}}};
}
template <class F>
Stages<Enumerate<F>> enumerate(F f) {
  detail::check_stateless<F>();
  return {{Enumerate<F>{f}}};
}
inline Stages<Take> take(std::uint64_t n) { return {{Take{n}}}; }
inline Stages<Drop> drop(std::uint64_t n) { return {{Drop{n}}}; }
template <AssociativeOperator Op>
Stages<Scan<Op>> scan(Op op) {
  return {{Scan<Op>{std::move(op)}}};
}
// Running sum.
template <sprig::detail::ScalarNumber T>
Stages<Scan<decltype(sprig::plus<T>())>> scan() {
  return scan(sprig::plus<T>());
}
template <class U, class F>
Stages<KernelStage<U, F>> kernel_stage(std::uint32_t workgroup_size, F body) {
  detail::check_stateless<F>();
  return {{KernelStage<U, F>{body, workgroup_size}}};
}

// The element type after applying stages S... to T.
template <class T, class... S>
struct chain_output;
template <class T>
struct chain_output<T> {
  using type = T;
};
template <class T, class S, class... Rest>
struct chain_output<T, S, Rest...> {
  using type = typename chain_output<typename S::template output<T>, Rest...>::type;
};
template <class T, class... S>
using chain_output_t = typename chain_output<T, S...>::type;

}  // namespace sprig::gpu
