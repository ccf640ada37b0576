// Division rounded toward minus infinity and the remainder that goes with it, for integers
// and floats, scalars and vectors (a scalar operand is broadcast as for `/`). Beside the
// truncating C++ `/` and `%` these give the modulo a wrapping index or a periodic
// coordinate wants: mod(-1, 8) == 7 where -1 % 8 == -1. Meanings in semantics.hpp:
//   * integers: mod's non-zero result has the divisor's sign (SPIR-V OpSMod); division by
//     zero and MIN / -1 follow `/` and `%` (floor_div(x, 0) == all ones, mod(x, 0) == x);
//     for unsigned types they are `/` and `%`;
//   * floats: floor_div(a, b) == floor(a / b), mod(a, b) == a - b * floor(a / b) (GLSL mod).
#pragma once

#include <source_location>

#include "sprig/dsl/math.hpp"

namespace sprig {

template <class A, class B, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B> && Numeric<T>
Expr<T> floor_div(const A& a, const B& b, std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::pure(ir::Op::FloorDiv, device_type<T>(), {Operand<T>(a, l).node, Operand<T>(b, l).node}, l));
}

template <class A, class B, class T = deduced_type_t<A, B>>
  requires detail::AnyDevice<A, B> && Numeric<T>
Expr<T> mod(const A& a, const B& b, std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::pure(ir::Op::Mod, device_type<T>(), {Operand<T>(a, l).node, Operand<T>(b, l).node}, l));
}

}  // namespace sprig
