// Turning a launch's C++ arguments into a backend-neutral Launch, checked against the
// kernel's parameters: wrong types or counts do not compile; a RawBuffer of the wrong
// element type or uniform bytes of the wrong size throw a DeviceError naming the kernel,
// the parameter and the launching line.
#pragma once

#include <algorithm>
#include <cstring>
#include <span>
#include <tuple>
#include <type_traits>
#include <vector>

#include "sprig/dsl/kernel.hpp"
#include "sprig/runtime/backend.hpp"

namespace sprig {

// Bytes between consecutive T in a device buffer (std430).
template <class T>
std::size_t element_stride() {
  return ir::array_stride(device_type<T>(), ir::LayoutRule::Std430);
}

// Throws unless host arrays of T have the device's std430 layout (so they copy as bytes).
template <class T>
void check_host_layout() {
  static const std::string problem = host_layout_mismatch<T>(ir::LayoutRule::Std430, true);
  if (!problem.empty()) throw DeviceError("buffers of this type cannot be copied to or from the host: " + problem);
}

namespace detail {

// Throws a DeviceError about launch argument `param` of `l` (launch_message's wording).
[[noreturn]] void launch_error(const Launch& l, std::size_t param, const std::string& what);

// Binds `buffer` to buffer parameter `p` (argument `index`), checking its element type.
void bind_buffer(Launch& l, const ir::Param& p, std::size_t index, const RawBuffer& buffer);

// A launch of `kernel` over `g` with room for its arguments (the part of make_launch that
// does not depend on the argument types, compiled once).
Launch begin_launch(std::shared_ptr<const ir::Kernel> kernel, const Grid& g, const DeviceInfo& device);

template <class P, class Arg>
struct binder {
  static constexpr bool accepts = false;
};

// A value parameter takes exactly its host type, or a value that converts without narrowing.
template <DeviceValue T, class Arg>
  requires requires(Arg a) { T{a}; }
struct binder<Expr<T>, Arg> {
  static constexpr bool accepts = true;
  static void bind(Launch& l, const ir::Param& p, std::size_t, const Arg& arg) {
    T value{arg};
    std::memcpy(l.push_constants.data() + p.push_offset, &value, sizeof(T));
  }
};

// A buffer parameter takes a DeviceBuffer of its element type, or a RawBuffer whose
// element type is checked at launch.
template <DeviceValue T, Access A, bool C, class Arg>
  requires std::is_base_of_v<RawBuffer, Arg>
struct binder<BufferParam<T, A, C>, Arg> {
  static constexpr bool accepts = std::is_same_v<Arg, RawBuffer> || std::is_same_v<Arg, DeviceBuffer<T>>;
  static void bind(Launch& l, const ir::Param& p, std::size_t index, const RawBuffer& buffer) {
    bind_buffer(l, p, index, buffer);
  }
};

// A uniform parameter takes a host S, or its std140 bytes (size checked at launch).
template <ReflectedStruct S, class Arg>
struct binder<Uniform<S>, Arg> {
  static constexpr bool accepts =
      std::is_same_v<Arg, S> || std::is_convertible_v<const Arg&, std::span<const std::byte>>;
  static void bind(Launch& l, const ir::Param& p, std::size_t index, const Arg& arg) {
    std::vector<std::byte> bytes;
    if constexpr (std::is_same_v<Arg, S>) {
      bytes.resize(sizeof(S));
      std::memcpy(bytes.data(), &arg, sizeof(S));
    } else {
      std::span<const std::byte> span = arg;
      bytes.assign(span.begin(), span.end());
    }
    std::size_t expected = ir::layout_of(p.type, ir::LayoutRule::Std140).size;
    // std140 rounds a struct's size up to 16 bytes; the host struct may end earlier.
    if constexpr (std::is_same_v<Arg, S>) bytes.resize(std::max(bytes.size(), expected));
    if (bytes.size() < expected)
      launch_error(l, index,
                   "the uniform " + ir::to_string(p.type) + " needs " + std::to_string(expected) + " bytes but got " +
                       std::to_string(bytes.size()));
    l.bindings[p.binding] = std::move(bytes);
  }
};

// Binds launch argument `index` to parameter `p` of type P.
template <class P, class Arg>
void bind_arg(Launch& l, const ir::Param& p, std::size_t index, const Arg& arg) {
  using B = binder<P, std::remove_cvref_t<Arg>>;
  static_assert(B::accepts,
                "a launch argument does not match the kernel parameter at this position (values take "
                "their exact host type, buffers a DeviceBuffer<T> of the element type, uniforms the "
                "host struct)");
  if constexpr (B::accepts) B::bind(l, p, index, arg);
}

}  // namespace detail

template <KernelType K, class... Args>
Launch make_launch(const K& kernel, const Grid& g, const DeviceInfo& device, Args&&... args) {
  using Params = typename K::params;
  static_assert(std::tuple_size_v<Params> == sizeof...(Args),
                "the launch passes a different number of arguments than the kernel has parameters");
  Launch l = detail::begin_launch(kernel.ir(), g, device);
  const ir::Kernel& k = *l.kernel;
  if constexpr (std::tuple_size_v<Params> == sizeof...(Args)) {  // else only the assertion above
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (detail::bind_arg<std::tuple_element_t<I, Params>>(l, k.params[I], I, args), ...);
    }(std::index_sequence_for<Args...>{});
  }
  return l;
}

}  // namespace sprig
