// Atomics on buffer elements and shared memory (OpAtomic*). The IR's scope maps to a SPIR-V
// scope; a memory order other than relaxed becomes acquire/release semantics over both
// storage classes a kernel can share data through (uniform/storage-buffer and workgroup
// memory), as a C++ atomic orders all memory; relaxed is semantics None.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

constexpr std::uint32_t shared_storage_bits =
    std::uint32_t(spv::MemorySemanticsMask::UniformMemory) | std::uint32_t(spv::MemorySemanticsMask::WorkgroupMemory);

}  // namespace

Id Emitter::scope(ir::Scope s) {
  switch (s) {
    case ir::Scope::Invocation: return u32(std::uint32_t(spv::Scope::Invocation));
    case ir::Scope::Subgroup: return u32(std::uint32_t(spv::Scope::Subgroup));
    case ir::Scope::Workgroup: return u32(std::uint32_t(spv::Scope::Workgroup));
    case ir::Scope::Device: return u32(std::uint32_t(spv::Scope::Device));
  }
  fail("unknown scope");
}

Id Emitter::memory_semantics(ir::MemoryOrder order, std::uint32_t storage_bits) {
  std::uint32_t bits = 0;
  switch (order) {
    case ir::MemoryOrder::Relaxed: return u32(0);
    case ir::MemoryOrder::Acquire: bits = std::uint32_t(spv::MemorySemanticsMask::Acquire); break;
    case ir::MemoryOrder::Release: bits = std::uint32_t(spv::MemorySemanticsMask::Release); break;
    case ir::MemoryOrder::AcqRel: bits = std::uint32_t(spv::MemorySemanticsMask::AcquireRelease); break;
  }
  return u32(bits | storage_bits);
}

Id Emitter::emit_atomic(const ir::Node& n) {
  ir::NodeRef target = n.operands.at(0);
  ir::AtomicInfo info = ir::atomic_info(n.b);
  ir::TypeRef t = target->type;
  if (!t->is_int() || t->is_vector()) fail("atomics operate on 32- or 64-bit integers", &n);
  if (ir::scalar_bits(t->scalar) == 64) m_.capability(spv::Capability::Int64Atomics);
  Id ptr = pointer_id(target), ty = type(t), sc = scope(info.scope);
  Id semantics = memory_semantics(info.order, shared_storage_bits);
  auto operand = [&](std::size_t i) { return value(n.operands.at(i)); };
  bool s = t->is_signed_int();
  switch (ir::AtomicOp(n.a)) {
    case ir::AtomicOp::Load: return op(spv::Op::OpAtomicLoad, ty, {ptr, sc, semantics});
    case ir::AtomicOp::Store: op_void(spv::Op::OpAtomicStore, {ptr, sc, semantics, operand(1)}); return 0;
    case ir::AtomicOp::Exchange: return op(spv::Op::OpAtomicExchange, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::CompareExchange: {
      // The failure ordering may not release (SPIR-V: Unequal no stronger than Equal).
      bool acquires = info.order == ir::MemoryOrder::Acquire || info.order == ir::MemoryOrder::AcqRel;
      Id unequal = memory_semantics(acquires ? ir::MemoryOrder::Acquire : ir::MemoryOrder::Relaxed, shared_storage_bits);
      return op(spv::Op::OpAtomicCompareExchange, ty, {ptr, sc, semantics, unequal, operand(1), operand(2)});
    }
    case ir::AtomicOp::Add: return op(spv::Op::OpAtomicIAdd, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::Sub: return op(spv::Op::OpAtomicISub, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::Min:
      return op(s ? spv::Op::OpAtomicSMin : spv::Op::OpAtomicUMin, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::Max:
      return op(s ? spv::Op::OpAtomicSMax : spv::Op::OpAtomicUMax, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::And: return op(spv::Op::OpAtomicAnd, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::Or: return op(spv::Op::OpAtomicOr, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::Xor: return op(spv::Op::OpAtomicXor, ty, {ptr, sc, semantics, operand(1)});
    case ir::AtomicOp::Increment: return op(spv::Op::OpAtomicIIncrement, ty, {ptr, sc, semantics});
    case ir::AtomicOp::Decrement: return op(spv::Op::OpAtomicIDecrement, ty, {ptr, sc, semantics});
  }
  fail("unknown atomic operation", &n);
}

}  // namespace sprig::compiler
