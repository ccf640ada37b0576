#include "sprig/dsl/atomics.hpp"

namespace sprig::detail {

namespace {

ir::Space root_space(ir::NodeRef pointer) {
  while (pointer->op == ir::Op::Access) pointer = pointer->operands[0];
  return pointer->space;
}

}  // namespace

ir::NodeRef atomic(ir::AtomicOp op, ir::NodeRef pointer, std::vector<ir::NodeRef> values, MemoryOrder order,
                   std::optional<Scope> scope, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  ir::Space space = root_space(pointer);
  if (space != ir::Space::StorageBuffer && space != ir::Space::Workgroup)
    throw TraceError("atomics work on buffer elements and shared memory, not on local variables", loc,
                     b.kernel().name);
  if (op == ir::AtomicOp::Load && (order == MemoryOrder::Release || order == MemoryOrder::AcqRel))
    throw TraceError("an atomic load cannot have release semantics", loc, b.kernel().name);
  if (op == ir::AtomicOp::Store && (order == MemoryOrder::Acquire || order == MemoryOrder::AcqRel))
    throw TraceError("an atomic store cannot have acquire semantics", loc, b.kernel().name);
  Scope s = scope.value_or(space == ir::Space::Workgroup ? Scope::Workgroup : Scope::Device);
  if (space == ir::Space::Workgroup && s == Scope::Device) s = Scope::Workgroup;  // nothing wider sees it
  if (pointer->type->is_64bit()) b.kernel().features.int64_atomics = true;
  std::vector<ir::NodeRef> operands{pointer};
  operands.insert(operands.end(), values.begin(), values.end());
  ir::TypeRef result = ir::atomic_reads(op) ? pointer->type : ir::void_type();  // what it read, if it reads
  return b.statement(ir::Op::Atomic, result, std::move(operands), loc, std::uint64_t(op), ir::pack(ir::AtomicInfo{s, order}));
}

}  // namespace sprig::detail
