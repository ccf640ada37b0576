// Reflection of user structs, so they can be used in buffers, uniforms, push constants and
// locals. One macro per struct, at namespace scope next to the struct:
//
//   struct Particle { sprig::vec3 pos; float mass; };
//   SPRIG_STRUCT(Particle, pos, mass)
//
// It defines a function found by argument-dependent lookup, so it works in any namespace.
// (A macro is needed because C++20 cannot name a struct's members otherwise.)
#pragma once

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace sprig::detail {

template <class S, class... Members>
struct Reflection {
  std::string_view name;
  std::vector<std::string> field_names;
  std::tuple<Members...> members;
};

std::vector<std::string> split_field_names(std::string_view names);

template <class S, class... Members>
Reflection<S, Members...> reflection(std::string_view name, std::string_view names, Members... members) {
  return {name, split_field_names(names), std::tuple<Members...>(members...)};
}

}  // namespace sprig::detail

// Up to 32 members per struct.
#define SPRIG_DETAIL_EXPAND(x) x
#define SPRIG_DETAIL_COUNT(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, n, ...) n
#define SPRIG_DETAIL_NARGS(...) SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_COUNT(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))
#define SPRIG_DETAIL_CAT(a, b) SPRIG_DETAIL_CAT_(a, b)
#define SPRIG_DETAIL_CAT_(a, b) a##b
#define SPRIG_DETAIL_M1(T, m) &T::m
#define SPRIG_DETAIL_M2(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M1(T, __VA_ARGS__))
#define SPRIG_DETAIL_M3(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M2(T, __VA_ARGS__))
#define SPRIG_DETAIL_M4(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M3(T, __VA_ARGS__))
#define SPRIG_DETAIL_M5(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M4(T, __VA_ARGS__))
#define SPRIG_DETAIL_M6(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M5(T, __VA_ARGS__))
#define SPRIG_DETAIL_M7(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M6(T, __VA_ARGS__))
#define SPRIG_DETAIL_M8(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M7(T, __VA_ARGS__))
#define SPRIG_DETAIL_M9(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M8(T, __VA_ARGS__))
#define SPRIG_DETAIL_M10(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M9(T, __VA_ARGS__))
#define SPRIG_DETAIL_M11(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M10(T, __VA_ARGS__))
#define SPRIG_DETAIL_M12(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M11(T, __VA_ARGS__))
#define SPRIG_DETAIL_M13(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M12(T, __VA_ARGS__))
#define SPRIG_DETAIL_M14(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M13(T, __VA_ARGS__))
#define SPRIG_DETAIL_M15(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M14(T, __VA_ARGS__))
#define SPRIG_DETAIL_M16(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M15(T, __VA_ARGS__))
#define SPRIG_DETAIL_M17(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M16(T, __VA_ARGS__))
#define SPRIG_DETAIL_M18(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M17(T, __VA_ARGS__))
#define SPRIG_DETAIL_M19(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M18(T, __VA_ARGS__))
#define SPRIG_DETAIL_M20(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M19(T, __VA_ARGS__))
#define SPRIG_DETAIL_M21(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M20(T, __VA_ARGS__))
#define SPRIG_DETAIL_M22(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M21(T, __VA_ARGS__))
#define SPRIG_DETAIL_M23(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M22(T, __VA_ARGS__))
#define SPRIG_DETAIL_M24(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M23(T, __VA_ARGS__))
#define SPRIG_DETAIL_M25(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M24(T, __VA_ARGS__))
#define SPRIG_DETAIL_M26(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M25(T, __VA_ARGS__))
#define SPRIG_DETAIL_M27(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M26(T, __VA_ARGS__))
#define SPRIG_DETAIL_M28(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M27(T, __VA_ARGS__))
#define SPRIG_DETAIL_M29(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M28(T, __VA_ARGS__))
#define SPRIG_DETAIL_M30(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M29(T, __VA_ARGS__))
#define SPRIG_DETAIL_M31(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M30(T, __VA_ARGS__))
#define SPRIG_DETAIL_M32(T, m, ...) &T::m, SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_M31(T, __VA_ARGS__))
#define SPRIG_DETAIL_MEMBERS(T, ...) SPRIG_DETAIL_EXPAND(SPRIG_DETAIL_CAT(SPRIG_DETAIL_M, SPRIG_DETAIL_NARGS(__VA_ARGS__))(T, __VA_ARGS__))

#define SPRIG_STRUCT(Type, ...)                                                                     \
  [[maybe_unused]] inline auto sprig_reflect(const Type*) {                                         \
    return ::sprig::detail::reflection<Type>(#Type, #__VA_ARGS__, SPRIG_DETAIL_MEMBERS(Type, __VA_ARGS__)); \
  }
