// Barriers: OpControlBarrier (execution + memory) and OpMemoryBarrier, with the scopes of
// BarrierInfo and semantics made of its order plus the storage classes it orders
// (shared -> WorkgroupMemory, buffers -> UniformMemory), as glslang emits barrier() and
// memoryBarrierBuffer().
#include "emitter.hpp"

namespace sprig::compiler {

void Emitter::emit_barrier(const ir::Node& n) {
  ir::BarrierInfo info = ir::barrier_info(n.b);
  std::uint32_t storage = 0;
  if (info.classes & ir::OrdersShared) storage |= std::uint32_t(spv::MemorySemanticsMask::WorkgroupMemory);
  if (info.classes & ir::OrdersBuffers) storage |= std::uint32_t(spv::MemorySemanticsMask::UniformMemory);
  Id semantics = memory_semantics(info.order, storage);
  if (ir::BarrierKind(n.a) == ir::BarrierKind::Control)
    op_void(spv::Op::OpControlBarrier, {scope(info.execution_scope), scope(info.memory_scope), semantics});
  else
    op_void(spv::Op::OpMemoryBarrier, {scope(info.memory_scope), semantics});
}

}  // namespace sprig::compiler
