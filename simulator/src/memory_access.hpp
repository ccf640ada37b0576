// Pointers and the memory they lead to. A pointer value is, per lane, a byte offset from
// the start of its root variable (a buffer binding, a shared variable, or the lane's own
// local variable); which root is known statically from the pointer's chain of Access
// nodes. An Access whose index is out of its array's range yields a poisoned offset that
// remembers the index and the Access, so the memory instruction that uses it — and only
// it, only for the lanes that really access — reports the error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "context.hpp"
#include "launch_state.hpp"
#include "value_shape.hpp"

namespace sprig::sim {

constexpr std::uint64_t poison_bit = std::uint64_t(1) << 63;

inline std::uint64_t poisoned(std::uint64_t index, std::uint32_t access_pc) {
  return poison_bit | ((index & 0x7fffffffu) << 32) | access_pc;
}

// Static facts of one memory instruction (Load, Store, Atomic, DeclareVar).
struct MemoryOp {
  ir::Space space = ir::Space::None;
  std::uint32_t root = 0;         // buffer: kernel parameter; shared: Kernel::shared index; function: variable index
  std::uint32_t root_offset = 0;  // shared, function: where the variable starts
  std::uint32_t root_size = 0;    // shared, function: the variable's size (buffers: the binding's)
  const MemoryShape* shape = nullptr;  // the value accessed
  bool coherent = false;               // a CoherentBuffer: other workgroups' writes are polled
  // Function variables reached through constant indices only: the value's offset in the
  // variable, the same for every lane and known to be in bounds.
  std::optional<std::uint32_t> fixed_offset;
};

// Where lane `lane` finds the bytes of the root and how many there are.
struct Region {
  std::byte* base;
  std::uint64_t size;
};

template <ir::Space S>
inline Region region_of(Context& c, const MemoryOp& op, std::uint32_t lane) {
  if constexpr (S == ir::Space::StorageBuffer) {
    const BoundBuffer& b = c.launch->buffers[op.root];
    return {b.data, b.size};
  } else if constexpr (S == ir::Space::Workgroup) {
    return {c.group->shared.data() + op.root_offset, op.root_size};
  } else {
    return {c.lane_vars(lane) + op.root_offset, op.root_size};
  }
}

inline bool in_bounds(std::uint64_t offset, std::uint64_t bytes, std::uint64_t size) {
  return offset < size && bytes <= size - offset;
}

// Reports why `lane` cannot access `bytes` at `offset` of `op`'s root (cold path).
void report_bad_access(Context& c, const Instr& in, const MemoryOp& op, std::uint32_t lane, std::uint64_t offset,
                       std::uint64_t bytes, std::uint64_t size, AccessKind kind);

// Fills `op` for the pointer `pointer` (the root found through its Access chain).
class ProgramBuilder;
MemoryOp memory_op_for(ProgramBuilder& b, const ir::Node& site, const ir::Node* pointer, ir::TypeRef value);

inline void notify_access(Context& c, const Instr& in, const MemoryOp& op, AccessKind kind, Mask lanes,
                          const std::uint64_t* offsets) {
  c.observer->memory(MemoryAccess{in.node, op.space, op.root, kind, lanes, offsets, op.shape->size, c.coords()});
}

}  // namespace sprig::sim
