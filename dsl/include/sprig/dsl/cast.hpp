// Explicit conversions between device types: the only way to change a value's type.
//   cast<float>(i)      value conversion (semantics.hpp: float -> int truncates and saturates)
//   cast<ivec4>(v)      component-wise for vectors of the same size
//   bitcast<float>(u)   reinterprets the bits; the total size must match (u64 <-> uvec2 too)
#pragma once

#include <source_location>

#include "sprig/dsl/operand_type.hpp"

namespace sprig {

template <ScalarOrVector To, class From, class T = deduced_type_t<From>>
  requires ScalarOrVector<T>
Expr<To> cast(const From& value, std::source_location l = std::source_location::current()) {
  static_assert(components_of<To>() == components_of<T>(), "cast<T> keeps the number of components");
  Operand<T> v(value, l);
  if constexpr (std::is_same_v<To, T>) return Expr<To>(v.node);
  else return Expr<To>(detail::pure(ir::Op::Convert, device_type<To>(), {v.node}, l));
}

template <ScalarOrVector To, class From, class T = deduced_type_t<From>>
  requires ScalarOrVector<T>
Expr<To> bitcast(const From& value, std::source_location l = std::source_location::current()) {
  static_assert(sizeof(component_t<To>) * components_of<To>() == sizeof(component_t<T>) * components_of<T>(),
                "bitcast<T> needs types of the same size");
  static_assert(!std::is_same_v<component_t<To>, bool> && !std::is_same_v<component_t<T>, bool>,
                "bools have no bit pattern to reinterpret: use select or cast");
  Operand<T> v(value, l);
  if constexpr (std::is_same_v<To, T>) return Expr<To>(v.node);
  else return Expr<To>(detail::pure(ir::Op::Bitcast, device_type<To>(), {v.node}, l));
}

}  // namespace sprig
