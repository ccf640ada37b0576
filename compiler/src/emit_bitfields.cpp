// bitfield_extract / bitfield_insert. SPIR-V leaves offset + count > width undefined;
// semantics.hpp clamps the field to the value's width (bits beyond it read as zero / are
// not written) and makes count 0 extract 0 and insert nothing, as OpBitField* already do.
// 32-bit values use OpBitField*; 64-bit values (which Vulkan does not allow there) use
// shifts and masks.
#include "emitter.hpp"

namespace sprig::compiler {

std::pair<Id, Id> Emitter::clamped_field(ir::NodeRef offset, ir::NodeRef count, std::uint32_t width) {
  std::uint64_t o = 0, c = 0;
  if (uniform_constant(offset, o) && uniform_constant(count, c) && o <= width && c <= width - o)
    return {value(offset), value(count)};
  Id u32t = uint_type(32);
  Id clamped_offset = glsl(GLSLstd450UMin, u32t, {value(offset), u32(width)});
  Id room = op(spv::Op::OpISub, u32t, {u32(width), clamped_offset});
  return {clamped_offset, glsl(GLSLstd450UMin, u32t, {value(count), room})};
}

Id Emitter::emit_bitfield_extract(const ir::Node& n) {
  ir::TypeRef t = n.type;
  bool is_signed = t->is_signed_int();
  Id x = value(n.operands[0]);
  if (ir::scalar_bits(t->scalar) == 32) {
    auto [offset, count] = clamped_field(n.operands[1], n.operands[2], 32);
    return op(is_signed ? spv::Op::OpBitFieldSExtract : spv::Op::OpBitFieldUExtract, type(t), {x, offset, count});
  }
  // Shift the field to the top, then back down to bit 0 (arithmetically for signed types,
  // which sign-extends).
  auto [offset, count] = clamped_field(n.operands[1], n.operands[2], 64);
  Id u32t = uint_type(32);
  // Masked so that no shift reaches 64 even when count == 0 and the result is discarded.
  Id up = op(spv::Op::OpBitwiseAnd, u32t,
             {op(spv::Op::OpISub, u32t, {op(spv::Op::OpISub, u32t, {u32(64), offset}), count}), u32(63)});
  Id down = op(spv::Op::OpBitwiseAnd, u32t, {op(spv::Op::OpISub, u32t, {u32(64), count}), u32(63)});
  Id empty = op(spv::Op::OpIEqual, bool_type(), {count, u32(0)});
  ir::TypeRef scalar = ir::component_type(t);
  Id st = type(scalar), zero = splat(scalar, 0);
  std::vector<Id> parts;
  for (Id component : components(x, t)) {
    Id top = op(spv::Op::OpShiftLeftLogical, st, {component, up});
    Id field = is_signed ? shift_right_arithmetic(top, down, scalar) : op(spv::Op::OpShiftRightLogical, st, {top, down});
    parts.push_back(op(spv::Op::OpSelect, st, {empty, zero, field}));
  }
  return compose(t, parts);
}

Id Emitter::emit_bitfield_insert(const ir::Node& n) {
  ir::TypeRef t = n.type;
  Id base = value(n.operands[0]), insert = value(n.operands[1]);
  if (ir::scalar_bits(t->scalar) == 32) {
    auto [offset, count] = clamped_field(n.operands[2], n.operands[3], 32);
    return op(spv::Op::OpBitFieldInsert, type(t), {base, insert, offset, count});
  }
  // mask = count ones at offset; result = base & ~mask | insert << offset & mask.
  auto [offset, count] = clamped_field(n.operands[2], n.operands[3], 64);
  Id u32t = uint_type(32), u64t = uint_type(64);
  ir::TypeRef u64 = ir::scalar_type(ir::ScalarKind::U64);
  Id shift = op(spv::Op::OpBitwiseAnd, u32t, {offset, u32(63)});
  Id drop = op(spv::Op::OpBitwiseAnd, u32t, {op(spv::Op::OpISub, u32t, {u32(64), count}), u32(63)});
  Id ones = op(spv::Op::OpShiftRightLogical, u64t, {splat(u64, ~0ull), drop});
  Id empty = op(spv::Op::OpIEqual, bool_type(), {count, u32(0)});
  Id mask = op(spv::Op::OpSelect, u64t, {empty, splat(u64, 0), op(spv::Op::OpShiftLeftLogical, u64t, {ones, shift})});
  Id keep = op(spv::Op::OpNot, u64t, {mask});
  ir::TypeRef scalar = ir::component_type(t);
  std::vector<Id> base_parts = components(base, t), insert_parts = components(insert, t), parts;
  for (std::size_t i = 0; i < base_parts.size(); ++i) {
    Id b = to_unsigned(base_parts[i], scalar), v = to_unsigned(insert_parts[i], scalar);
    Id field = op(spv::Op::OpBitwiseAnd, u64t, {op(spv::Op::OpShiftLeftLogical, u64t, {v, shift}), mask});
    Id merged = op(spv::Op::OpBitwiseOr, u64t, {op(spv::Op::OpBitwiseAnd, u64t, {b, keep}), field});
    parts.push_back(from_unsigned(merged, scalar));
  }
  return compose(t, parts);
}

}  // namespace sprig::compiler
