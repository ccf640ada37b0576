// Workgroup shared memory, declared inside a kernel and sized at trace time:
//
//   auto tile = shared_array<std::uint32_t>(256, "tile");   // 256 x u32 per workgroup
//   tile[local_index()] = x;  barrier();  y = tile[255u - local_index()];
//
// Shared variables may be captured by callables the kernel calls. Every workgroup has its
// own copy; its contents are undefined until written in this dispatch.
#pragma once

#include <source_location>
#include <string>

#include "sprig/dsl/place.hpp"

namespace sprig {

namespace detail {

std::uint32_t declare_shared(ir::TypeRef type, std::string name, const SourceLoc& loc);
ir::NodeRef shared_root(std::uint32_t index, ir::TypeRef type, const SourceLoc& loc);

}  // namespace detail

// `count` elements of T shared by a workgroup.
template <DeviceValue T>
class SharedArray {
 public:
  SharedArray(std::uint32_t count, std::uint32_t index) : count_(count), index_(index) {}

  Place<T, Access::ReadWrite> operator[](const Index& i) const {
    if (i.node->op == ir::Op::Constant && i.node->imm[0] >= count_)
      throw TraceError("shared array index " + std::to_string(i.node->imm[0]) + " out of range (" +
                           std::to_string(count_) + " elements)",
                       i.loc);
    ir::NodeRef root = detail::shared_root(index_, ir::array_type(device_type<T>(), count_), i.loc);
    return Place<T, Access::ReadWrite>(detail::access(root, device_type<T>(), i.node, i.loc));
  }
  std::uint32_t size() const { return count_; }

 private:
  std::uint32_t count_;
  std::uint32_t index_;
};

template <DeviceValue T>
SharedArray<T> shared_array(std::uint32_t count, std::string name = "",
                            std::source_location l = std::source_location::current()) {
  if (count == 0) throw TraceError("a shared array needs at least one element", l);
  std::uint32_t index = detail::declare_shared(ir::array_type(device_type<T>(), count), std::move(name), l);
  return SharedArray<T>(count, index);
}

// One shared value of type T (a struct, an array, a scalar...).
template <DeviceValue T>
Place<T, Access::ReadWrite> shared(std::string name = "", std::source_location l = std::source_location::current()) {
  std::uint32_t index = detail::declare_shared(device_type<T>(), std::move(name), l);
  return Place<T, Access::ReadWrite>(detail::shared_root(index, device_type<T>(), l));
}

}  // namespace sprig
