// GLSL.std.450 math for device scalars and vectors, with GLSL's meanings. Integer abs,
// min, max and clamp are exact; float transcendentals have the device's precision (the
// simulator uses the C++ library: differences are within the Vulkan spec's tolerances).
#pragma once

#include <source_location>

#include "sprig/dsl/operand_type.hpp"

namespace sprig {

namespace detail {

template <class T, class... Args>
Expr<T> math(ir::MathFn fn, ir::TypeRef result, const std::source_location& l, const Args&... args) {
  return Expr<T>(pure(ir::Op::Math, result, {args.node...}, l, std::uint64_t(fn)));
}

// Some argument is a device value (so these overloads never capture plain C++ math).
template <class... A>
concept AnyDevice = !std::is_void_v<typename first_device_type<A...>::type>;

}  // namespace detail

#define SPRIG_FLOAT_UNARY(name, Fn)                                                        \
  template <class A, class T = deduced_type_t<A>>                                          \
    requires detail::AnyDevice<A> && FloatLike<T>                                          \
  Expr<T> name(const A& x, std::source_location l = std::source_location::current()) {     \
    return detail::math<T>(ir::MathFn::Fn, device_type<T>(), l, Operand<T>(x, l));         \
  }
SPRIG_FLOAT_UNARY(floor, Floor)
SPRIG_FLOAT_UNARY(ceil, Ceil)
SPRIG_FLOAT_UNARY(fract, Fract)
// Rounds to nearest, halves to even (GLSL RoundEven: GLSL Round leaves halves to the device).
SPRIG_FLOAT_UNARY(round, Round)
SPRIG_FLOAT_UNARY(trunc, Trunc)
SPRIG_FLOAT_UNARY(sqrt, Sqrt)
SPRIG_FLOAT_UNARY(inversesqrt, InverseSqrt)
SPRIG_FLOAT_UNARY(exp, Exp)
SPRIG_FLOAT_UNARY(exp2, Exp2)
SPRIG_FLOAT_UNARY(log, Log)
SPRIG_FLOAT_UNARY(log2, Log2)
SPRIG_FLOAT_UNARY(sin, Sin)
SPRIG_FLOAT_UNARY(cos, Cos)
SPRIG_FLOAT_UNARY(tan, Tan)
SPRIG_FLOAT_UNARY(asin, Asin)
SPRIG_FLOAT_UNARY(acos, Acos)
SPRIG_FLOAT_UNARY(atan, Atan)
SPRIG_FLOAT_UNARY(normalize, Normalize)
SPRIG_FLOAT_UNARY(sign, Sign)
#undef SPRIG_FLOAT_UNARY

#define SPRIG_FLOAT_BINARY(name, Fn)                                                                      \
  template <class A, class B, class T = deduced_type_t<A, B>>                                             \
    requires detail::AnyDevice<A, B> && FloatLike<T>                                                      \
  Expr<T> name(const A& x, const B& y, std::source_location l = std::source_location::current()) {        \
    return detail::math<T>(ir::MathFn::Fn, device_type<T>(), l, Operand<T>(x, l), Operand<T>(y, l));      \
  }
SPRIG_FLOAT_BINARY(pow, Pow)
// atan2(y, x): the angle of (x, y), in [-pi, pi].
SPRIG_FLOAT_BINARY(atan2, Atan2)
// 0 where x < edge, else 1.
SPRIG_FLOAT_BINARY(step, Step)
SPRIG_FLOAT_BINARY(reflect, Reflect)
#undef SPRIG_FLOAT_BINARY

template <class A, class T = deduced_type_t<A>>
  requires detail::AnyDevice<A> && Numeric<T>
Expr<T> abs(const A& x, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::Abs, device_type<T>(), l, Operand<T>(x, l));
}
template <class A, class B, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B> && Numeric<T>
Expr<T> min(const A& x, const B& y, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::Min, device_type<T>(), l, Operand<T>(x, l), Operand<T>(y, l));
}
template <class A, class B, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B> && Numeric<T>
Expr<T> max(const A& x, const B& y, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::Max, device_type<T>(), l, Operand<T>(x, l), Operand<T>(y, l));
}
template <class A, class B, class C, class T = deduced_type_t<A, B, C>>
  requires detail::AnyDevice<A, B, C> && Numeric<T>
Expr<T> clamp(const A& x, const B& lo, const C& hi, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::Clamp, device_type<T>(), l, Operand<T>(x, l), Operand<T>(lo, l),
                         Operand<T>(hi, l));
}
// x * (1 - a) + y * a; `a` is a float or a vector like x.
template <class A, class B, class C, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B, C> && FloatLike<T>
Expr<T> mix(const A& x, const B& y, const C& a, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::Mix, device_type<T>(), l, Operand<T>(x, l), Operand<T>(y, l), Operand<T>(a, l));
}
template <class A, class B, class C, class T = deduced_type_t<C, A, B>>
  requires detail::AnyDevice<A, B, C> && FloatLike<T>
Expr<T> smoothstep(const A& edge0, const B& edge1, const C& x, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::SmoothStep, device_type<T>(), l, Operand<T>(edge0, l), Operand<T>(edge1, l),
                         Operand<T>(x, l));
}
// a * b + c (possibly fused: precision as the device gives it).
template <class A, class B, class C, class T = deduced_type_t<A, B, C>>
  requires detail::AnyDevice<A, B, C> && FloatLike<T>
Expr<T> fma(const A& a, const B& b, const C& c, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::Fma, device_type<T>(), l, Operand<T>(a, l), Operand<T>(b, l), Operand<T>(c, l));
}

// ---- geometry on float vectors (and scalars, as GLSL allows)
template <class A, class B, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B> && FloatLike<T>
Expr<float> dot(const A& x, const B& y, std::source_location l = std::source_location::current()) {
  if constexpr (ScalarValue<T>) return Expr<float>(Operand<T>(x, l).node) * Expr<float>(Operand<T>(y, l).node);
  else return detail::math<float>(ir::MathFn::Dot, device_type<float>(), l, Operand<T>(x, l), Operand<T>(y, l));
}
template <class A, class B>
  requires detail::AnyDevice<A, B>
Expr<vec3> cross(const A& x, const B& y, std::source_location l = std::source_location::current()) {
  return detail::math<vec3>(ir::MathFn::Cross, device_type<vec3>(), l, Operand<vec3>(x, l), Operand<vec3>(y, l));
}
template <class A, class T = deduced_type_t<A>>
  requires detail::AnyDevice<A> && FloatLike<T>
Expr<float> length(const A& x, std::source_location l = std::source_location::current()) {
  return detail::math<float>(ir::MathFn::Length, device_type<float>(), l, Operand<T>(x, l));
}
template <class A, class B, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B> && FloatLike<T>
Expr<float> distance(const A& x, const B& y, std::source_location l = std::source_location::current()) {
  return detail::math<float>(ir::MathFn::Distance, device_type<float>(), l, Operand<T>(x, l), Operand<T>(y, l));
}
// Refraction of incident `i` at normal `n` with ratio of indices `eta`.
template <class A, class B, class C, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B> && FloatLike<T>
Expr<T> refract(const A& i, const B& n, const C& eta, std::source_location l = std::source_location::current()) {
  return detail::math<T>(ir::MathFn::Refract, device_type<T>(), l, Operand<T>(i, l), Operand<T>(n, l),
                         Operand<float>(eta, l));
}

// Per-component tests, a bool of the operand's shape.
template <class A, class T = deduced_type_t<A>>
  requires detail::AnyDevice<A> && FloatLike<T>
Expr<with_component_t<T, bool>> isnan(const A& x, std::source_location l = std::source_location::current()) {
  return detail::math<with_component_t<T, bool>>(ir::MathFn::IsNan, device_type<with_component_t<T, bool>>(), l,
                                                  Operand<T>(x, l));
}
template <class A, class T = deduced_type_t<A>>
  requires detail::AnyDevice<A> && FloatLike<T>
Expr<with_component_t<T, bool>> isinf(const A& x, std::source_location l = std::source_location::current()) {
  return detail::math<with_component_t<T, bool>>(ir::MathFn::IsInf, device_type<with_component_t<T, bool>>(), l,
                                                  Operand<T>(x, l));
}

}  // namespace sprig
