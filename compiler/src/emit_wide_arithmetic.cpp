// mul_hi and add_carry: the high half of the double-width product and the carry out of a
// sum, through SPIR-V's two-result instructions (OpUMulExtended / OpSMulExtended /
// OpIAddCarry return a struct {low, high}).
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

constexpr std::uint32_t high_member = 1;

}  // namespace

Id Emitter::emit_mul_hi(const ir::Node& n) {
  ir::TypeRef t = n.type;
  Id a = value(n.operands[0]), b = value(n.operands[1]);
  if (t->is_signed_int()) {
    Id ty = type(t);
    Id pair = op(spv::Op::OpSMulExtended, m_.type(spv::Op::OpTypeStruct, {ty, ty}), {a, b});
    return op(spv::Op::OpCompositeExtract, ty, {pair, high_member});
  }
  Id ty = type(t);
  Id pair = op(spv::Op::OpUMulExtended, m_.type(spv::Op::OpTypeStruct, {ty, ty}), {a, b});
  return op(spv::Op::OpCompositeExtract, ty, {pair, high_member});
}

Id Emitter::emit_add_carry(const ir::Node& n) {
  // OpIAddCarry wants unsigned members; the carry bit is the same in either signedness.
  ir::TypeRef t = n.type;
  Id ut = type(unsigned_of(t));
  Id a = to_unsigned(value(n.operands[0]), t), b = to_unsigned(value(n.operands[1]), t);
  Id pair = op(spv::Op::OpIAddCarry, m_.type(spv::Op::OpTypeStruct, {ut, ut}), {a, b});
  return from_unsigned(op(spv::Op::OpCompositeExtract, ut, {pair, high_member}), t);
}

}  // namespace sprig::compiler
