// Barriers. barrier() is the workgroup barrier most kernels want: every invocation of the
// workgroup waits there, and memory written before it (shared and buffer memory) is
// visible after it to the whole workgroup. The memory classes a barrier orders are given
// as a value that cannot be empty, so a barrier that orders nothing cannot be written.
#pragma once

#include <source_location>

#include "sprig/dsl/ir.hpp"

namespace sprig {

// Which memory a barrier orders.
enum class Orders : std::uint8_t {
  Shared = ir::OrdersShared,
  Buffers = ir::OrdersBuffers,
  All = ir::OrdersShared | ir::OrdersBuffers,
};

using ir::MemoryOrder;
using ir::Scope;

// Control barrier for the workgroup (all its invocations must reach it, in uniform control
// flow), with acquire-release semantics at workgroup scope for `orders`.
void barrier(Orders orders = Orders::All, std::source_location l = std::source_location::current());
// Control barrier for the subgroup.
void subgroup_barrier(Orders orders = Orders::All, std::source_location l = std::source_location::current());
// A memory barrier without execution synchronisation: orders this invocation's accesses to
// `orders` at `scope` (e.g. Scope::Device before publishing a flag to other workgroups).
void memory_barrier(Scope scope, Orders orders = Orders::All, MemoryOrder order = MemoryOrder::AcqRel,
                    std::source_location l = std::source_location::current());

}  // namespace sprig
