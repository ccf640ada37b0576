// The device type that a generic DSL function (select, min, for_, ...) works in, deduced
// from its arguments: the type of the first argument that is a device value or place;
// if all are C++ literals, the literal's own type (int -> int32_t, unsigned -> uint32_t).
#pragma once

#include <type_traits>

#include "sprig/dsl/place.hpp"

namespace sprig {

namespace detail {

template <class X>
struct operand_value {
  using type = void;
};
template <class T>
struct operand_value<Expr<T>> {
  using type = T;
};
template <class T, Access A>
struct operand_value<Place<T, A>> {
  using type = T;
};
template <class T>
struct operand_value<Variable<T>> {
  using type = T;
};

template <class... X>
struct first_device_type {
  using type = void;
};
template <class X, class... Rest>
struct first_device_type<X, Rest...> {
  using own = typename operand_value<std::remove_cvref_t<X>>::type;
  using type = std::conditional_t<std::is_void_v<own>, typename first_device_type<Rest...>::type, own>;
};

template <class X>
using literal_type = std::conditional_t<ScalarValue<std::remove_cvref_t<X>>, std::remove_cvref_t<X>, void>;

}  // namespace detail

template <class X, class... Rest>
using deduced_type_t =
    std::conditional_t<std::is_void_v<typename detail::first_device_type<X, Rest...>::type>, detail::literal_type<X>,
                       typename detail::first_device_type<X, Rest...>::type>;

}  // namespace sprig
