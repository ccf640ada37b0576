// Kernel parameter types. A kernel lambda's parameters say what it binds:
//
//   ReadBuffer<T>   a storage buffer the kernel only reads (writing it does not compile)
//   WriteBuffer<T>  a storage buffer the kernel only writes (reading it does not compile)
//   Buffer<T>       a storage buffer read and written
//   CoherentBuffer<T> a storage buffer other workgroups observe while the kernel runs
//   Uniform<S>      a uniform struct (std140), read as a value
//   Expr<T>         a value passed in push constants (std430): Float, UInt, Vec4, structs...
//
// Buffers are runtime-sized; size() is their element count.
#pragma once

#include <cstdint>
#include <source_location>

#include "sprig/dsl/place.hpp"

namespace sprig {

namespace detail {

ir::NodeRef buffer_root(std::uint32_t param, ir::TypeRef element, const SourceLoc& loc);
ir::NodeRef buffer_length(std::uint32_t param, const SourceLoc& loc);
ir::NodeRef param_value(std::uint32_t param, ir::TypeRef type, const SourceLoc& loc);

}  // namespace detail

template <DeviceValue T, Access A, bool Coherent = false>
class BufferParam {
 public:
  using element_type = T;
  static constexpr Access access = A;
  static constexpr bool coherent = Coherent;

  explicit BufferParam(std::uint32_t param) : param_(param) {}

  // The element at `index` (a UInt, an Int or an integer literal; a float does not compile).
  Place<T, A> operator[](const Index& index) const {
    return Place<T, A>(detail::access(root(index.loc), device_type<T>(), index.node, index.loc));
  }
  // Number of elements in the bound buffer.
  Expr<std::uint32_t> size(std::source_location l = std::source_location::current()) const {
    return Expr<std::uint32_t>(detail::buffer_length(param_, l));
  }
  std::uint32_t param_index() const { return param_; }

 private:
  ir::NodeRef root(const SourceLoc& loc) const { return detail::buffer_root(param_, device_type<T>(), loc); }
  std::uint32_t param_;
};

template <DeviceValue T>
using ReadBuffer = BufferParam<T, Access::Read>;
template <DeviceValue T>
using WriteBuffer = BufferParam<T, Access::Write>;
template <DeviceValue T>
using Buffer = BufferParam<T, Access::ReadWrite>;
// A read-write buffer whose writes become visible to other workgroups while the kernel
// runs (through device-scope atomics and barriers): for workgroups that communicate, as
// in decoupled look-back.
template <DeviceValue T>
using CoherentBuffer = BufferParam<T, Access::ReadWrite, true>;

// A uniform buffer holding one S, laid out std140; it reads as a value of S.
template <ReflectedStruct S>
class Uniform : public Expr<S> {
 public:
  using struct_type = S;
  explicit Uniform(ir::NodeRef value) : Expr<S>(value) {}
};

}  // namespace sprig
