// & | ^ ~, shifts and rotates, plus the helpers the other bit-operation files share
// (signedness changes, 64-bit halves, per-component access). Shift and rotate counts are
// taken modulo the bit width (semantics.hpp); a constant count below the width needs no
// mask.
#include "emitter.hpp"

namespace sprig::compiler {

ir::TypeRef Emitter::unsigned_of(ir::TypeRef t) {
  return ir::with_scalar(t, ir::scalar_bits(t->scalar) == 64 ? ir::ScalarKind::U64 : ir::ScalarKind::U32);
}

Id Emitter::to_unsigned(Id x, ir::TypeRef t) {
  return t->is_signed_int() ? op(spv::Op::OpBitcast, type(unsigned_of(t)), {x}) : x;
}

Id Emitter::from_unsigned(Id x, ir::TypeRef t) { return t->is_signed_int() ? op(spv::Op::OpBitcast, type(t), {x}) : x; }

std::pair<Id, Id> Emitter::split64(Id x) {
  // An OpBitcast of a 64-bit scalar to a 2-vector puts the low-order bits in component 0.
  Id u32 = uint_type(32);
  Id halves = op(spv::Op::OpBitcast, m_.type(spv::Op::OpTypeVector, {u32, 2}), {x});
  return {op(spv::Op::OpCompositeExtract, u32, {halves, 0}), op(spv::Op::OpCompositeExtract, u32, {halves, 1})};
}

Id Emitter::join64(Id low, Id high) {
  Id halves = op(spv::Op::OpCompositeConstruct, m_.type(spv::Op::OpTypeVector, {uint_type(32), 2}), {low, high});
  return op(spv::Op::OpBitcast, uint_type(64), {halves});
}

std::vector<Id> Emitter::components(Id x, ir::TypeRef t) {
  if (!t->is_vector()) return {x};
  std::vector<Id> parts;
  Id component = type(t->element);
  for (std::uint32_t i = 0; i < t->count; ++i) parts.push_back(op(spv::Op::OpCompositeExtract, component, {x, i}));
  return parts;
}

Id Emitter::compose(ir::TypeRef t, const std::vector<Id>& parts) {
  if (!t->is_vector()) return parts.at(0);
  return op(spv::Op::OpCompositeConstruct, type(t), {}, parts);
}

Id Emitter::emit_bitwise(const ir::Node& n) {
  Id t = type(n.type), a = value(n.operands[0]);
  bool logical = n.type->is_bool();
  switch (n.op) {
    case ir::Op::BitAnd:
      return op(logical ? spv::Op::OpLogicalAnd : spv::Op::OpBitwiseAnd, t, {a, value(n.operands[1])});
    case ir::Op::BitOr:
      return op(logical ? spv::Op::OpLogicalOr : spv::Op::OpBitwiseOr, t, {a, value(n.operands[1])});
    case ir::Op::BitXor:
      return op(logical ? spv::Op::OpLogicalNotEqual : spv::Op::OpBitwiseXor, t, {a, value(n.operands[1])});
    case ir::Op::BitNot: return op(logical ? spv::Op::OpLogicalNot : spv::Op::OpNot, t, {a});
    default: fail("not a bitwise op", &n);
  }
}

// The count modulo the width of `value_type`'s components.
Id Emitter::shift_count(ir::NodeRef count, ir::TypeRef value_type) {
  std::uint64_t width = ir::scalar_bits(value_type->scalar), c = 0;
  if (uniform_constant(count, c)) return c < width ? value(count) : splat(count->type, c & (width - 1));
  return op(spv::Op::OpBitwiseAnd, type(count->type), {value(count), splat(count->type, width - 1)});
}

Id Emitter::emit_shift(const ir::Node& n) {
  Id count = shift_count(n.operands[1], n.type);
  if (n.op == ir::Op::Shr && n.type->is_signed_int()) return shift_right_arithmetic(value(n.operands[0]), count, n.type);
  spv::Op code = n.op == ir::Op::Shr ? spv::Op::OpShiftRightLogical : spv::Op::OpShiftLeftLogical;
  return op(code, type(n.type), {value(n.operands[0]), count});
}

// Quirk::ShiftOfKnownNegativeMiscompared: a negative x shifts as ~(~x >> count), logically,
// which is the same bits; the driver's compiler then has no arithmetic shift to misjudge.
Id Emitter::shift_right_arithmetic(Id x, Id count, ir::TypeRef t) {
  if (!options_.arithmetic_shift_by_logical_shifts) return op(spv::Op::OpShiftRightArithmetic, type(t), {x, count});
  ir::TypeRef u = unsigned_of(t);
  Id ut = type(u), bits = to_unsigned(x, t);
  Id negative = op(spv::Op::OpSLessThan, type(ir::with_scalar(t, ir::ScalarKind::Bool)), {x, splat(t, 0)});
  Id from_positive = op(spv::Op::OpShiftRightLogical, ut, {bits, count});
  Id from_negative = op(spv::Op::OpNot, ut, {op(spv::Op::OpShiftRightLogical, ut, {op(spv::Op::OpNot, ut, {bits}), count})});
  return from_unsigned(op(spv::Op::OpSelect, ut, {negative, from_negative, from_positive}), t);
}

// rotl(x, n) = x << n | x >> (w - n), with both counts reduced modulo w so that n == 0
// shifts by 0 twice instead of by w.
Id Emitter::emit_rotate(const ir::Node& n) {
  ir::TypeRef t = n.type;
  ir::NodeRef count = n.operands[1];
  Id ty = type(t), x = value(n.operands[0]);
  std::uint64_t width = ir::scalar_bits(t->scalar), c = 0;
  bool left = n.op == ir::Op::RotateLeft;
  Id forward, backward;
  if (uniform_constant(count, c)) {
    c &= width - 1;
    if (c == 0) return x;
    forward = splat(count->type, c);
    backward = splat(count->type, width - c);
  } else {
    Id ct = type(count->type), mask = splat(count->type, width - 1);
    forward = op(spv::Op::OpBitwiseAnd, ct, {value(count), mask});
    backward = op(spv::Op::OpBitwiseAnd, ct, {op(spv::Op::OpSNegate, ct, {forward}), mask});
  }
  Id high = op(spv::Op::OpShiftLeftLogical, ty, {x, left ? forward : backward});
  Id low = op(spv::Op::OpShiftRightLogical, ty, {x, left ? backward : forward});
  return op(spv::Op::OpBitwiseOr, ty, {high, low});
}

}  // namespace sprig::compiler
