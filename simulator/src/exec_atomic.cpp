// Atomic operations on 32- and 64-bit integers in buffers and shared memory. The lanes of
// a subgroup perform theirs one after another in lane order, and subgroups run one at a
// time, so every atomic is trivially sequentially consistent; memory orders and scopes
// need no further work here (the race analysis reads them from the node).
#include <cstring>

#include "analysis/launch_analysis.hpp"
#include "memory_access.hpp"
#include "program_builder.hpp"
#include "transient_check.hpp"
#include "sprig/dsl/semantics.hpp"

namespace sprig::sim {

namespace {

template <class T>
T combine(ir::AtomicOp op, T old, T value, T comparator) {
  using A = ir::AtomicOp;
  switch (op) {
    case A::Load: return old;
    case A::Store:
    case A::Exchange: return value;
    case A::CompareExchange: return old == comparator ? value : old;
    case A::Add: return semantics::add(old, value);
    case A::Sub: return semantics::sub(old, value);
    case A::Min: return semantics::min(old, value);
    case A::Max: return semantics::max(old, value);
    case A::And: return T(old & value);
    case A::Or: return T(old | value);
    case A::Xor: return T(old ^ value);
    case A::Increment: return semantics::add(old, T(1));
    case A::Decrement: return semantics::sub(old, T(1));
  }
  return old;
}

// aux = AtomicOp; src0 = pointer, src1 = value, src2 = comparator; dst = previous value.
template <class T, ir::Space S>
void atomic(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const ir::AtomicOp kind = ir::AtomicOp(in.aux);
  const Word* ptr = c.reg(in.src[0]);
  const Word* value = c.reg(in.src[1]);
  const Word* comparator = c.reg(in.src[2]);
  const bool has_result = ir::atomic_reads(kind);
  bool changed = false;
  Mask done = 0;
  for_each_lane(c.active, [&](std::uint32_t l) {
    Region r = region_of<S>(c, op, l);
    if (!in_bounds(ptr[l], sizeof(T), r.size)) [[unlikely]] {
      if (has_result) c.reg(in.dst)[l] = 0;
      report_bad_access(c, in, op, l, ptr[l], sizeof(T), r.size, AccessKind::Atomic);
      return;
    }
    std::byte* p = r.base + ptr[l];
    T old;
    std::memcpy(&old, p, sizeof(T));
    T next = combine<T>(kind, old, get<T>(value[l]), get<T>(comparator[l]));
    if (next != old) {
      std::memcpy(p, &next, sizeof(T));
      changed = true;
    }
    if (has_result) c.reg(in.dst)[l] = put(old);
    done |= lane_bit(l);
  });
  c.iteration_polled = true;
  if constexpr (S == ir::Space::StorageBuffer)
    if (c.launch->buffers[op.root].owners) [[unlikely]]
      check_transient(c, in, op, AccessKind::Atomic, done, ptr, sizeof(T));
  if (changed) {
    c.iteration_wrote = true;
    ++c.launch->memory_epoch;
  }
  if (c.observer) [[unlikely]]
    notify_access(c, in, op, AccessKind::Atomic, done, ptr);
  if (c.analysis) [[unlikely]]
    c.analysis->memory(c, in, op, AccessKind::Atomic, done, ptr);
}

template <ir::Space S>
Handler atomic_for(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::I32: return atomic<std::int32_t, S>;
    case ir::ScalarKind::U32: return atomic<std::uint32_t, S>;
    case ir::ScalarKind::I64: return atomic<std::int64_t, S>;
    case ir::ScalarKind::U64: return atomic<std::uint64_t, S>;
    default: return nullptr;
  }
}

}  // namespace

void lower_atomic(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  const ir::Node& pointer = *n.operands.at(0);
  if (!pointer.type->is_scalar()) b.unsupported(n, "atomics on " + ir::to_string(pointer.type));
  MemoryOp op = memory_op_for(b, n, &pointer, pointer.type);
  switch (op.space) {
    case ir::Space::StorageBuffer: in.run = atomic_for<ir::Space::StorageBuffer>(pointer.type->scalar); break;
    case ir::Space::Workgroup: in.run = atomic_for<ir::Space::Workgroup>(pointer.type->scalar); break;
    default: b.unsupported(n, "atomics on local variables");
  }
  in.aux = std::uint32_t(n.a);
  // Operands the op does not take read the pointer's row: defined words, never used.
  if (n.operands.size() < 2) in.src[1] = in.src[0];
  if (n.operands.size() < 3) in.src[2] = in.src[0];
  in.data = b.program().keep(op);
}

}  // namespace sprig::sim
