// The DSL call for each operation of the fuzzer's program model (Op, ExprKind::Construct),
// on values of every type the model has: what fuzz_kernel.cpp's tracer calls, written as a
// person would write it (the printer prints the same calls). Included by fuzz_kernel.cpp only.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "sprig/sprig.hpp"

#include "program.hpp"

namespace sprig::fuzz::calls {

template <class... T>
struct TypeList {};
using AllTypes = TypeList<bool, std::int32_t, std::uint32_t, float, std::int64_t, std::uint64_t, bvec2, bvec3, bvec4,
                          ivec2, ivec3, ivec4, uvec2, uvec3, uvec4, vec2, vec3, vec4>;
template <template <class> class W, class L>
struct VariantOf;
template <template <class> class W, class... T>
struct VariantOf<W, TypeList<T...>> {
  using type = std::variant<W<T>...>;
};
template <class T>
using ExprOf = sprig::Expr<T>;
template <class T>
using PlaceOf = Place<T, Access::ReadWrite>;
using Value = VariantOf<ExprOf, AllTypes>::type;
using VarPlace = VariantOf<PlaceOf, AllTypes>::type;

[[noreturn]] inline void ill_typed(const char* what) { throw std::logic_error(std::string("fuzz: ill-typed ") + what); }

// Calls f(std::type_identity<H>{}) for the host type H of `t`.
template <class F>
auto with_host_type(Type t, F&& f) {
  auto pick = [&]<class S, class V2, class V3, class V4>() {
    switch (t.lanes) {
      case 1: return f(std::type_identity<S>{});
      case 2: return f(std::type_identity<V2>{});
      case 3: return f(std::type_identity<V3>{});
      default: return f(std::type_identity<V4>{});
    }
  };
  switch (t.scalar) {
    case Scalar::Bool: return pick.template operator()<bool, bvec2, bvec3, bvec4>();
    case Scalar::I32: return pick.template operator()<std::int32_t, ivec2, ivec3, ivec4>();
    case Scalar::U32: return pick.template operator()<std::uint32_t, uvec2, uvec3, uvec4>();
    case Scalar::F32: return pick.template operator()<float, vec2, vec3, vec4>();
    case Scalar::I64: return f(std::type_identity<std::int64_t>{});
    case Scalar::U64: break;
  }
  return f(std::type_identity<std::uint64_t>{});
}

template <class C>
C component_value(std::uint64_t bits) {
  if constexpr (std::is_same_v<C, float>)
    return std::bit_cast<float>(std::uint32_t(bits));
  else if constexpr (std::is_same_v<C, bool>)
    return bits != 0;
  else
    return C(bits);
}

template <class T>
T host_value(const std::array<std::uint64_t, 4>& bits) {
  if constexpr (VectorValue<T>) {
    using C = component_t<T>;
    T v{};
    v.x = component_value<C>(bits[0]);
    v.y = component_value<C>(bits[1]);
    if constexpr (components_of<T>() >= 3) v.z = component_value<C>(bits[2]);
    if constexpr (components_of<T>() >= 4) v.w = component_value<C>(bits[3]);
    return v;
  } else {
    return component_value<T>(bits[0]);
  }
}

template <class T>
Value binary(Op op, const sprig::Expr<T>& a, const sprig::Expr<T>& b) {
  switch (op) {
    case Op::Eq: return a == b;
    case Op::Ne: return a != b;
    default: break;
  }
  if constexpr (Numeric<T>) {
    switch (op) {
      case Op::Add: return a + b;
      case Op::Sub: return a - b;
      case Op::Mul: return a * b;
      case Op::Div: return a / b;
      case Op::Lt: return a < b;
      case Op::Le: return a <= b;
      case Op::Gt: return a > b;
      case Op::Ge: return a >= b;
      case Op::Min: return sprig::min(a, b);
      case Op::Max: return sprig::max(a, b);
      case Op::FloorDiv: return floor_div(a, b);
      case Op::Mod: return mod(a, b);
      default: break;
    }
  }
  if constexpr (IntegerLike<T>) {
    switch (op) {
      case Op::Rem: return a % b;
      case Op::BitAnd: return a & b;
      case Op::BitOr: return a | b;
      case Op::BitXor: return a ^ b;
      case Op::Shl: return a << b;
      case Op::Shr: return a >> b;
      case Op::RotateLeft: return rotate_left(a, b);
      case Op::RotateRight: return rotate_right(a, b);
      case Op::MulHi: return mul_hi(a, b);
      case Op::AddCarry: return add_carry(a, b);
      default: break;
    }
  }
  if constexpr (BoolLike<T>) {
    switch (op) {
      case Op::LogicalAnd: return a && b;
      case Op::LogicalOr: return a || b;
      default: break;
    }
  }
  ill_typed("binary operation");
}

// floor_div and mod of a vector by a scalar, which the DSL broadcasts.
template <class T, class C>
Value broadcast_binary(Op op, const sprig::Expr<T>& a, const sprig::Expr<C>& b) {
  if constexpr (VectorValue<T> && Numeric<T> && std::is_same_v<C, component_t<T>>) {
    if (op == Op::FloorDiv) return floor_div(a, b);
    if (op == Op::Mod) return mod(a, b);
  }
  ill_typed("broadcast operation");
}

template <class T>
Value unary(Op op, const sprig::Expr<T>& a) {
  if constexpr (Numeric<T>) {
    if (op == Op::Neg) return -a;
  }
  if constexpr (IntegerLike<T>) {
    switch (op) {
      case Op::BitNot: return ~a;
      case Op::PopCount: return popcount(a);
      case Op::CountLeadingZeros: return count_leading_zeros(a);
      case Op::CountTrailingZeros: return count_trailing_zeros(a);
      case Op::BitReverse: return bit_reverse(a);
      case Op::ByteSwap: return byte_swap(a);
      default: break;
    }
  }
  if constexpr (BoolLike<T>) {
    if (op == Op::LogicalNot) return !a;
  }
  if constexpr (FloatLike<T>) {
    switch (op) {
      case Op::Abs: return sprig::abs(a);
      case Op::Floor: return sprig::floor(a);
      case Op::Ceil: return sprig::ceil(a);
      case Op::Trunc: return sprig::trunc(a);
      case Op::Round: return sprig::round(a);
      case Op::Fract: return sprig::fract(a);
      case Op::Sqrt: return sprig::sqrt(a);
      case Op::InverseSqrt: return sprig::inversesqrt(a);
      case Op::Exp: return sprig::exp(a);
      case Op::Exp2: return sprig::exp2(a);
      case Op::Log: return sprig::log(a);
      case Op::Log2: return sprig::log2(a);
      case Op::Sin: return sprig::sin(a);
      case Op::Cos: return sprig::cos(a);
      case Op::Atan: return sprig::atan(a);
      default: break;
    }
  }
  ill_typed("unary operation");
}

template <class T>
const sprig::Expr<T>& as(const Value& v) {
  if (auto* e = std::get_if<sprig::Expr<T>>(&v)) return *e;
  ill_typed("operand");
}

// Part i of a vector constructor of V: a scalar (K == 1) or a K-lane vector of V's component.
template <class V, int K>
auto part(const std::vector<Value>& parts, std::size_t i) {
  using P = typename sprig::Expr<V>::template Part<K>;
  return P(as<typename P::V>(parts.at(i)));
}

// The constructor of V whose parts have the lane counts `shape` (Vec4(xy, z, w): {2, 1, 1}),
// written as a person would write it.
template <class V>
Value construct(const std::vector<std::uint8_t>& shape, const std::vector<Value>& parts) {
  using E = sprig::Expr<V>;
  auto is = [&](std::initializer_list<std::uint8_t> s) { return std::equal(shape.begin(), shape.end(), s.begin(), s.end()); };
  if (is({1})) return E(part<V, 1>(parts, 0));
  if constexpr (components_of<V>() == 2) {
    if (is({1, 1})) return E(part<V, 1>(parts, 0), part<V, 1>(parts, 1));
  } else if constexpr (components_of<V>() == 3) {
    if (is({1, 1, 1})) return E(part<V, 1>(parts, 0), part<V, 1>(parts, 1), part<V, 1>(parts, 2));
    if (is({2, 1})) return E(part<V, 2>(parts, 0), part<V, 1>(parts, 1));
    if (is({1, 2})) return E(part<V, 1>(parts, 0), part<V, 2>(parts, 1));
  } else {
    if (is({1, 1, 1, 1}))
      return E(part<V, 1>(parts, 0), part<V, 1>(parts, 1), part<V, 1>(parts, 2), part<V, 1>(parts, 3));
    if (is({2, 1, 1})) return E(part<V, 2>(parts, 0), part<V, 1>(parts, 1), part<V, 1>(parts, 2));
    if (is({1, 2, 1})) return E(part<V, 1>(parts, 0), part<V, 2>(parts, 1), part<V, 1>(parts, 2));
    if (is({1, 1, 2})) return E(part<V, 1>(parts, 0), part<V, 1>(parts, 1), part<V, 2>(parts, 2));
    if (is({2, 2})) return E(part<V, 2>(parts, 0), part<V, 2>(parts, 1));
    if (is({3, 1})) return E(part<V, 3>(parts, 0), part<V, 1>(parts, 1));
    if (is({1, 3})) return E(part<V, 1>(parts, 0), part<V, 3>(parts, 1));
  }
  ill_typed("constructor shape");
}

}  // namespace sprig::fuzz::calls
