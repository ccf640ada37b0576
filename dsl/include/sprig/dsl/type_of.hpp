// Which host C++ types are device values, their IR types, and whether their host memory
// layout matches the device layout (std430 for buffers and push constants, std140 for
// uniforms). A mismatch is reported with the field, both offsets and how to fix it.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "sprig/dsl/host_vector.hpp"
#include "sprig/dsl/layout.hpp"
#include "sprig/dsl/reflect.hpp"
#include "sprig/dsl/types.hpp"

namespace sprig {

template <class T>
concept ScalarValue = std::same_as<T, bool> || std::same_as<T, std::int32_t> || std::same_as<T, std::uint32_t> ||
                      std::same_as<T, float> || std::same_as<T, std::int64_t> || std::same_as<T, std::uint64_t>;

template <class T>
concept IntegerValue = ScalarValue<T> && std::integral<T> && !std::same_as<T, bool>;

template <class T>
concept ReflectedStruct = requires { sprig_reflect(static_cast<const T*>(nullptr)); };

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

template <class T>
concept VectorValue = is_host_vector<T>::value;

template <class T>
concept DeviceValue = ScalarValue<T> || VectorValue<T> || ReflectedStruct<T> || is_std_array<T>::value ||
                      (std::is_bounded_array_v<T>);

template <ScalarValue T>
constexpr ir::ScalarKind scalar_kind() {
  if constexpr (std::same_as<T, bool>) return ir::ScalarKind::Bool;
  else if constexpr (std::same_as<T, std::int32_t>) return ir::ScalarKind::I32;
  else if constexpr (std::same_as<T, std::uint32_t>) return ir::ScalarKind::U32;
  else if constexpr (std::same_as<T, float>) return ir::ScalarKind::F32;
  else if constexpr (std::same_as<T, std::int64_t>) return ir::ScalarKind::I64;
  else return ir::ScalarKind::U64;
}

template <class T>
struct vector_traits;
template <class T, int N>
struct vector_traits<vec<T, N>> {
  using component = T;
  static constexpr int size = N;
};

template <class T>
ir::TypeRef device_type();

namespace detail {

template <class S, class M>
M member_type_of(M S::*);

template <class S>
ir::TypeRef struct_device_type() {
  static const ir::TypeRef type = [] {
    auto r = sprig_reflect(static_cast<const S*>(nullptr));
    std::vector<ir::Field> fields;
    std::size_t i = 0;
    std::apply(
        [&](auto... member) {
          ((fields.push_back(ir::Field{r.field_names[i++],
                                       device_type<std::remove_cvref_t<decltype(member_type_of(member))>>()})),
           ...);
        },
        r.members);
    return ir::struct_type(std::string(r.name), std::move(fields));
  }();
  return type;
}

}  // namespace detail

template <class T>
ir::TypeRef device_type() {
  static_assert(DeviceValue<T>,
                "not a device type: use bool, int32_t, uint32_t, float, int64_t, uint64_t, sprig::vec<T, N>, "
                "std::array, or a struct declared with SPRIG_STRUCT");
  if constexpr (ScalarValue<T>) {
    return ir::scalar_type(scalar_kind<T>());
  } else if constexpr (VectorValue<T>) {
    return ir::vector_type(scalar_kind<typename vector_traits<T>::component>(), vector_traits<T>::size);
  } else if constexpr (is_std_array<T>::value) {
    return ir::array_type(device_type<typename T::value_type>(), std::uint32_t(std::tuple_size_v<T>));
  } else if constexpr (std::is_bounded_array_v<T>) {
    return ir::array_type(device_type<std::remove_extent_t<T>>(), std::uint32_t(std::extent_v<T>));
  } else {
    return detail::struct_device_type<T>();
  }
}

// Index of `member` among S's reflected fields.
template <ReflectedStruct S, class M>
std::uint32_t field_index(M S::* member) {
  auto r = sprig_reflect(static_cast<const S*>(nullptr));
  std::uint32_t index = ~0u, i = 0;
  std::apply(
      [&](auto... m) {
        (([&] {
           if constexpr (std::is_same_v<decltype(m), M S::*>)
             if (m == member) index = i;
           ++i;
         }()),
         ...);
      },
      r.members);
  return index;
}

namespace detail {

// Appends to `problem` the first difference between T's host layout and `rule`.
template <class T>
void compare_layout(ir::LayoutRule rule, std::size_t base, const std::string& path, std::string& problem);

template <class S>
void compare_struct_layout(ir::LayoutRule rule, std::size_t base, const std::string& path, std::string& problem) {
  const ir::Layout device = ir::layout_of(device_type<S>(), rule);
  auto r = sprig_reflect(static_cast<const S*>(nullptr));
  static const S object{};
  std::size_t i = 0;
  std::apply(
      [&](auto... member) {
        ((
             [&] {
               if (!problem.empty()) return;
               using M = std::remove_cvref_t<decltype(object.*member)>;
               std::size_t host = std::size_t(reinterpret_cast<const char*>(&(object.*member)) -
                                              reinterpret_cast<const char*>(&object));
               std::string field = path + "." + r.field_names[i];
               if (host != device.offsets[i]) {
                 problem = "field '" + field + "' is at host offset " + std::to_string(base + host) +
                           " but the device layout puts it at " + std::to_string(base + device.offsets[i]) +
                           " (align the host member, e.g. alignas(" +
                           std::to_string(ir::layout_of(device_type<M>(), rule).alignment) + "))";
                 return;
               }
               compare_layout<M>(rule, base + host, field, problem);
               ++i;
             }()),
         ...);
      },
      r.members);
}

template <class T>
void compare_layout(ir::LayoutRule rule, std::size_t base, const std::string& path, std::string& problem) {
  if (!problem.empty()) return;
  if constexpr (ReflectedStruct<T>) {
    compare_struct_layout<T>(rule, base, path, problem);
  } else if constexpr (is_std_array<T>::value || std::is_bounded_array_v<T>) {
    using E = std::remove_cvref_t<decltype(std::declval<T&>()[0])>;
    std::uint32_t stride = ir::layout_of(device_type<T>(), rule).stride;
    if (stride != sizeof(E))
      problem = "array '" + path + "' has a host element stride of " + std::to_string(sizeof(E)) +
                " bytes but a device stride of " + std::to_string(stride);
    else
      compare_layout<E>(rule, base, path + "[]", problem);
  }
}

}  // namespace detail

// Empty if T's host layout equals the device layout under `rule`; otherwise what differs.
// `as_array_element` also checks that consecutive host elements match the array stride.
template <DeviceValue T>
std::string host_layout_mismatch(ir::LayoutRule rule, bool as_array_element) {
  std::string problem;
  std::string name = ir::to_string(device_type<T>());
  if (as_array_element) {
    std::uint32_t stride = ir::array_stride(device_type<T>(), rule);
    if (stride != sizeof(T))
      return "element type " + name + " is " + std::to_string(sizeof(T)) + " bytes on the host but " +
             std::to_string(stride) + " bytes apart in a device array (pad the host type, or use a 4-component vector)";
  }
  detail::compare_layout<T>(rule, 0, name, problem);
  return problem;
}

}  // namespace sprig
