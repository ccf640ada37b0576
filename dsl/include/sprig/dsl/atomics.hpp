// Atomic operations on 32- and 64-bit integers in buffers and shared memory, following the
// Vulkan memory model: each takes a memory order (relaxed by default) and a scope
// (default: the device for buffers, the workgroup for shared memory).
//
//   UInt old = atomic_add(counter[0], 1u);
//   atomic_store(flags[tile], 1u, MemoryOrder::Release);
//   UInt seen = atomic_compare_exchange(lock[0], 0u, 1u, MemoryOrder::Acquire);
//
// All except atomic_store return the value the location held before the operation.
#pragma once

#include <optional>
#include <source_location>

#include "sprig/dsl/barrier.hpp"
#include "sprig/dsl/operand_type.hpp"

namespace sprig {

namespace detail {

ir::NodeRef atomic(ir::AtomicOp op, ir::NodeRef pointer, std::vector<ir::NodeRef> values, MemoryOrder order,
                   std::optional<Scope> scope, const SourceLoc& loc);

template <class T>
concept AtomicValue = std::same_as<T, std::int32_t> || std::same_as<T, std::uint32_t> ||
                      std::same_as<T, std::int64_t> || std::same_as<T, std::uint64_t>;

}  // namespace detail

template <detail::AtomicValue T>
Expr<T> atomic_load(const Place<T, Access::ReadWrite>& p, MemoryOrder order = MemoryOrder::Relaxed,
                    std::optional<Scope> scope = {}, std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::atomic(ir::AtomicOp::Load, p.pointer(), {}, order, scope, l));
}

template <detail::AtomicValue T>
void atomic_store(const Place<T, Access::ReadWrite>& p, const Operand<std::type_identity_t<T>>& value, MemoryOrder order = MemoryOrder::Relaxed,
                  std::optional<Scope> scope = {}) {
  detail::atomic(ir::AtomicOp::Store, p.pointer(), {value.node}, order, scope, value.loc);
}

// Stores `desired` if the location holds `expected`; returns what it held.
template <detail::AtomicValue T>
Expr<T> atomic_compare_exchange(const Place<T, Access::ReadWrite>& p, const Operand<std::type_identity_t<T>>& expected,
                                const Operand<std::type_identity_t<T>>& desired, MemoryOrder order = MemoryOrder::Relaxed,
                                std::optional<Scope> scope = {}) {
  return Expr<T>(
      detail::atomic(ir::AtomicOp::CompareExchange, p.pointer(), {desired.node, expected.node}, order, scope, expected.loc));
}

#define SPRIG_ATOMIC_RMW(name, Kind)                                                                            \
  template <detail::AtomicValue T>                                                                              \
  Expr<T> name(const Place<T, Access::ReadWrite>& p, const Operand<std::type_identity_t<T>>& value,                                   \
               MemoryOrder order = MemoryOrder::Relaxed, std::optional<Scope> scope = {}) {                     \
    return Expr<T>(detail::atomic(ir::AtomicOp::Kind, p.pointer(), {value.node}, order, scope, value.loc));      \
  }
SPRIG_ATOMIC_RMW(atomic_exchange, Exchange)
SPRIG_ATOMIC_RMW(atomic_add, Add)
SPRIG_ATOMIC_RMW(atomic_sub, Sub)
// Signed or unsigned by T.
SPRIG_ATOMIC_RMW(atomic_min, Min)
SPRIG_ATOMIC_RMW(atomic_max, Max)
SPRIG_ATOMIC_RMW(atomic_and, And)
SPRIG_ATOMIC_RMW(atomic_or, Or)
SPRIG_ATOMIC_RMW(atomic_xor, Xor)
#undef SPRIG_ATOMIC_RMW

template <detail::AtomicValue T>
Expr<T> atomic_increment(const Place<T, Access::ReadWrite>& p, MemoryOrder order = MemoryOrder::Relaxed,
                         std::optional<Scope> scope = {}, std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::atomic(ir::AtomicOp::Increment, p.pointer(), {}, order, scope, l));
}
template <detail::AtomicValue T>
Expr<T> atomic_decrement(const Place<T, Access::ReadWrite>& p, MemoryOrder order = MemoryOrder::Relaxed,
                         std::optional<Scope> scope = {}, std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::atomic(ir::AtomicOp::Decrement, p.pointer(), {}, order, scope, l));
}

}  // namespace sprig
