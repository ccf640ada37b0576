// Associative binary operators for reduce and scan: a DSL function, its identity, and
// whether the device has a native subgroup instruction for it (so the algorithms can use
// subgroup_inclusive_add & co. instead of shuffles).
//
//   auto sum = sprig::plus<std::uint32_t>();
//   auto longest = sprig::make_operator<Run>("longest_run", [](Expr<Run> a, Expr<Run> b) { ... }, Run{});
//
// Operators must be associative; they need not be commutative unless declared so. The
// lambda must capture nothing: kernels are traced once per operator type and cached, so
// captured state could not take effect after the first call.
#pragma once

#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "sprig/dsl.hpp"
#include "sprig/stdlib/kernel_cache.hpp"

namespace sprig {

// The subgroup instruction family that implements an operator natively, if any.
enum class NativeOp : unsigned char { None, Add, Min, Max, And, Or, Xor };

template <DeviceValue T, class F>
struct BinaryOperator {
  using value_type = T;
  std::string name;  // appears in kernel names and cache keys
  F fn;
  T identity;
  NativeOp native = NativeOp::None;
  bool commutative = false;  // lets reductions combine elements in any order

  Expr<T> operator()(const Expr<T>& a, const Expr<T>& b) const { return fn(a, b); }

  // Identifies the operator among all operators of this program: the lambda's type is
  // unique per lambda expression, the identity's bytes distinguish e.g. min with a clamp.
  std::string cache_key() const {
    std::string key = name + "/" + detail::type_key<F>() + "/";
    const auto* bytes = reinterpret_cast<const unsigned char*>(&identity);
    for (std::size_t i = 0; i < sizeof(T); ++i) key += "0123456789abcdef"[bytes[i] >> 4], key += "0123456789abcdef"[bytes[i] & 15];
    return key;
  }
};

template <class Op>
concept AssociativeOperator = requires(const Op& op, Expr<typename Op::value_type> a) {
  { op(a, a) } -> std::same_as<Expr<typename Op::value_type>>;
  { op.identity } -> std::convertible_to<typename Op::value_type>;
  { op.cache_key() } -> std::convertible_to<std::string>;
};

// A user operator: `fn` takes two Expr<T> and returns their combination, `identity` is the
// value e with fn(e, x) == fn(x, e) == x.
template <DeviceValue T, class F>
auto make_operator(std::string name, F fn, T identity, bool commutative = false) {
  static_assert(std::is_empty_v<F>, "an operator lambda must capture nothing (kernels using it are cached)");
  return BinaryOperator<T, F>{std::move(name), fn, identity, NativeOp::None, commutative};
}

namespace detail {

template <class T>
T lowest_value() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}
template <class T>
T highest_value() {
  if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}

template <class T>
concept ScalarNumber = ScalarValue<T> && !std::same_as<T, bool>;

struct AddFn {
  template <class E> E operator()(const E& a, const E& b) const { return a + b; }
};
struct MinFn {
  template <class E> E operator()(const E& a, const E& b) const { return sprig::min(a, b); }
};
struct MaxFn {
  template <class E> E operator()(const E& a, const E& b) const { return sprig::max(a, b); }
};
struct AndFn {
  template <class E> E operator()(const E& a, const E& b) const { return a & b; }
};
struct OrFn {
  template <class E> E operator()(const E& a, const E& b) const { return a | b; }
};
struct XorFn {
  template <class E> E operator()(const E& a, const E& b) const { return a ^ b; }
};

}  // namespace detail

namespace detail {
// The type plus<T>() returns (the library compiles its sums once: scan.hpp, reduce.hpp).
template <class T>
using SumOperator = BinaryOperator<T, AddFn>;
}  // namespace detail

template <detail::ScalarNumber T>
auto plus() {
  return BinaryOperator<T, detail::AddFn>{"plus", {}, T(0), NativeOp::Add, true};
}
template <detail::ScalarNumber T>
auto minimum() {
  return BinaryOperator<T, detail::MinFn>{"minimum", {}, detail::highest_value<T>(), NativeOp::Min, true};
}
template <detail::ScalarNumber T>
auto maximum() {
  return BinaryOperator<T, detail::MaxFn>{"maximum", {}, detail::lowest_value<T>(), NativeOp::Max, true};
}
template <detail::ScalarNumber T>
  requires std::integral<T>
auto bit_and() {
  return BinaryOperator<T, detail::AndFn>{"bit_and", {}, T(~T(0)), NativeOp::And, true};
}
template <detail::ScalarNumber T>
  requires std::integral<T>
auto bit_or() {
  return BinaryOperator<T, detail::OrFn>{"bit_or", {}, T(0), NativeOp::Or, true};
}
template <detail::ScalarNumber T>
  requires std::integral<T>
auto bit_xor() {
  return BinaryOperator<T, detail::XorFn>{"bit_xor", {}, T(0), NativeOp::Xor, true};
}

}  // namespace sprig
