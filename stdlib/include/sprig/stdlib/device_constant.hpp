// A host value of any device type as a device value: scalars and vectors become literals,
// structs and arrays are assembled field by field in a local variable. The algorithms use
// it for operator identities, which may be user structs.
#pragma once

#include <tuple>

#include "sprig/dsl.hpp"

namespace sprig::detail {

template <DeviceValue T>
void assign_constant(const Place<T, Access::ReadWrite>& place, const T& value);

template <DeviceValue T>
Expr<T> device_constant(const T& value) {
  if constexpr (ScalarOrVector<T>) {
    return Expr<T>(value);
  } else {
    Var<T> v;
    assign_constant<T>(v, value);
    return v.load();
  }
}

template <DeviceValue T>
void assign_constant(const Place<T, Access::ReadWrite>& place, const T& value) {
  if constexpr (ScalarOrVector<T>) {
    place = Expr<T>(value);
  } else if constexpr (is_std_array<T>::value) {
    using E = typename T::value_type;
    for (std::size_t i = 0; i < value.size(); ++i) assign_constant<E>(place[std::uint32_t(i)], value[i]);
  } else {
    auto members = sprig_reflect(static_cast<const T*>(nullptr)).members;
    std::apply([&](auto... member) { (assign_constant(place[member], value.*member), ...); }, members);
  }
}

}  // namespace sprig::detail
