// bit_reverse (OpBitReverse, 32-bit operands only under Vulkan) and byte_swap (no SPIR-V
// instruction: shifts and masks). A 64-bit value is reversed as two swapped 32-bit halves.
#include "emitter.hpp"

namespace sprig::compiler {

// Swap the 16-bit halves (a rotate by 16), then the bytes inside each half.
Id Emitter::byte_swap32(Id x, ir::TypeRef shape) {
  Id t = type(shape), sixteen = splat(shape, 16), eight = splat(shape, 8), mask = splat(shape, 0x00ff00ffu);
  Id halves = op(spv::Op::OpBitwiseOr, t,
                 {op(spv::Op::OpShiftLeftLogical, t, {x, sixteen}), op(spv::Op::OpShiftRightLogical, t, {x, sixteen})});
  Id even = op(spv::Op::OpShiftLeftLogical, t, {op(spv::Op::OpBitwiseAnd, t, {halves, mask}), eight});
  Id odd = op(spv::Op::OpBitwiseAnd, t, {op(spv::Op::OpShiftRightLogical, t, {halves, eight}), mask});
  return op(spv::Op::OpBitwiseOr, t, {even, odd});
}

Id Emitter::emit_bit_reverse(const ir::Node& n) {
  ir::TypeRef t = n.type, u = unsigned_of(t);
  Id x = to_unsigned(value(n.operands[0]), t);
  if (ir::scalar_bits(t->scalar) == 32) return from_unsigned(op(spv::Op::OpBitReverse, type(u), {x}), t);
  Id u32t = uint_type(32);
  std::vector<Id> parts;
  for (Id component : components(x, u)) {
    auto [low, high] = split64(component);
    parts.push_back(join64(op(spv::Op::OpBitReverse, u32t, {high}), op(spv::Op::OpBitReverse, u32t, {low})));
  }
  return from_unsigned(compose(u, parts), t);
}

Id Emitter::emit_byte_swap(const ir::Node& n) {
  ir::TypeRef t = n.type, u = unsigned_of(t);
  Id x = to_unsigned(value(n.operands[0]), t);
  if (ir::scalar_bits(t->scalar) == 32) return from_unsigned(byte_swap32(x, u), t);
  ir::TypeRef word = ir::scalar_type(ir::ScalarKind::U32);
  std::vector<Id> parts;
  for (Id component : components(x, u)) {
    auto [low, high] = split64(component);
    parts.push_back(join64(byte_swap32(high, word), byte_swap32(low, word)));
  }
  return from_unsigned(compose(u, parts), t);
}

}  // namespace sprig::compiler
