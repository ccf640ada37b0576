// Host-side vector types that mirror the device's vectors (2..4 components). They are
// plain aggregates with x, y, z, w members, used in buffers, uniforms and push constants.
// 2- and 4-component vectors are aligned as std430/std140 align them, so structs of them
// match the device layout. A vec3 is 12 bytes aligned to its component (std430 aligns it
// to 16): the layout checks report where that matters, and alignas(16) fixes it.
#pragma once

#include <cstdint>
#include <type_traits>

namespace sprig {

template <class T, int N>
struct vec;

template <class T>
struct alignas(2 * sizeof(T)) vec<T, 2> {
  T x{}, y{};
  friend bool operator==(const vec&, const vec&) = default;
};
template <class T>
struct vec<T, 3> {
  T x{}, y{}, z{};
  friend bool operator==(const vec&, const vec&) = default;
};
template <class T>
struct alignas(4 * sizeof(T)) vec<T, 4> {
  T x{}, y{}, z{}, w{};
  friend bool operator==(const vec&, const vec&) = default;
};

using vec2 = vec<float, 2>;
using vec3 = vec<float, 3>;
using vec4 = vec<float, 4>;
using ivec2 = vec<std::int32_t, 2>;
using ivec3 = vec<std::int32_t, 3>;
using ivec4 = vec<std::int32_t, 4>;
using uvec2 = vec<std::uint32_t, 2>;
using uvec3 = vec<std::uint32_t, 3>;
using uvec4 = vec<std::uint32_t, 4>;
using bvec2 = vec<bool, 2>;
using bvec3 = vec<bool, 3>;
using bvec4 = vec<bool, 4>;
using i64vec2 = vec<std::int64_t, 2>;
using u64vec2 = vec<std::uint64_t, 2>;

template <class T>
struct is_host_vector : std::false_type {};
template <class T, int N>
struct is_host_vector<vec<T, N>> : std::true_type {};

}  // namespace sprig
