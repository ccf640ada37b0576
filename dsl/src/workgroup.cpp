// Shared memory and barriers.
#include "sprig/dsl/barrier.hpp"
#include "sprig/dsl/shared.hpp"

namespace sprig {

namespace detail {

std::uint32_t declare_shared(ir::TypeRef type, std::string name, const SourceLoc& loc) {
  ir::Kernel& k = ir::Builder::current(loc).kernel();
  if (name.empty()) name = "shared" + std::to_string(k.shared.size());
  k.shared.push_back(ir::SharedVariable{type, std::move(name), loc});
  return std::uint32_t(k.shared.size() - 1);
}

ir::NodeRef shared_root(std::uint32_t index, ir::TypeRef type, const SourceLoc& loc) {
  return ir::Builder::current(loc).pure(ir::Op::SharedRoot, type, {}, loc, index, 0, {}, ir::Space::Workgroup);
}

namespace {

void emit_barrier(ir::BarrierKind kind, ir::BarrierInfo info, const SourceLoc& loc) {
  ir::Builder::current(loc).statement(ir::Op::Barrier, ir::void_type(), {}, loc, std::uint64_t(kind), ir::pack(info));
}

}  // namespace

}  // namespace detail

void barrier(Orders orders, std::source_location l) {
  detail::emit_barrier(ir::BarrierKind::Control,
                       {Scope::Workgroup, Scope::Workgroup, MemoryOrder::AcqRel, std::uint8_t(orders)}, l);
}

void subgroup_barrier(Orders orders, std::source_location l) {
  ir::Builder::current(l).kernel().features.subgroup_basic = true;
  detail::emit_barrier(ir::BarrierKind::Control,
                       {Scope::Subgroup, Scope::Subgroup, MemoryOrder::AcqRel, std::uint8_t(orders)}, l);
}

void memory_barrier(Scope scope, Orders orders, MemoryOrder order, std::source_location l) {
  if (order == MemoryOrder::Relaxed) throw TraceError("a relaxed memory barrier orders nothing", l);
  detail::emit_barrier(ir::BarrierKind::Memory, {scope, scope, order, std::uint8_t(orders)}, l);
}

}  // namespace sprig
