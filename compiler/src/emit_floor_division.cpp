// floor_div and mod (semantics.hpp). Integers: the truncating quotient and remainder that
// `/` and `%` emit — with their guards for divisors 0 and -1 and the driver workarounds for
// signed remainders — then one step toward minus infinity where the remainder is non-zero
// and its sign differs from the divisor's. OpSMod is never used: it is undefined for a
// divisor of 0 and for MIN / -1, and the drivers that get OpSRem wrong on negative operands
// could not be trusted with it either. Floats: floor(a / b) and a - b * floor(a / b) as the
// simulator rounds them (each operation on its own; `/` is the precise one in precise kernels).
#include "emitter.hpp"

namespace sprig::compiler {

Id Emitter::emit_floor_division(const ir::Node& n) {
  using O = spv::Op;
  ir::TypeRef t = n.type;
  Id ty = type(t), a = value(n.operands[0]), b = value(n.operands[1]);
  const bool quotient_wanted = n.op == ir::Op::FloorDiv;
  if (t->is_float()) {
    Id quotient = kernel_.precise_floats ? precise_divide(a, b, t) : op(O::OpFDiv, ty, {a, b});
    Id floored = glsl(GLSLstd450Floor, ty, {quotient});
    if (quotient_wanted) return floored;
    return float_op(O::OpFSub, ty, {a, float_op(O::OpFMul, ty, {b, floored})});
  }
  ir::NodeRef divisor = n.operands[1];
  if (!t->is_signed_int()) return quotient_wanted ? integer_quotient(t, a, b, divisor) : integer_remainder(t, a, b, divisor);
  // x / 0, x % 0 and x % -1 == 0 come from the truncating forms, which need no step.
  std::uint64_t c = 0;
  const bool constant_divisor = uniform_constant(divisor, c);
  if (constant_divisor && c == 0) return quotient_wanted ? integer_quotient(t, a, b, divisor) : a;
  // (r ^ b) < 0 says the signs differ.
  Id remainder = integer_remainder(t, a, b, divisor);
  Id bools = type(ir::with_scalar(t, ir::ScalarKind::Bool)), zero = splat(t, 0);
  Id nonzero = op(O::OpINotEqual, bools, {remainder, zero});
  Id signs_differ = op(O::OpSLessThan, bools, {op(O::OpBitwiseXor, ty, {remainder, b}), zero});
  Id steps_down = op(O::OpLogicalAnd, bools, {nonzero, signs_differ});
  // mod: r + b never overflows (opposite signs); a zero divisor adds 0 to r == a.
  if (!quotient_wanted) return op(O::OpIAdd, ty, {remainder, op(O::OpSelect, ty, {steps_down, b, zero})});
  // floor_div: x / 0 keeps all ones, so a zero divisor never steps (there r == a may be
  // negative). A step happens only for |b| >= 2, so q - 1 never wraps.
  if (!constant_divisor) steps_down = op(O::OpLogicalAnd, bools, {steps_down, op(O::OpINotEqual, bools, {b, zero})});
  Id quotient = integer_quotient(t, a, b, divisor);
  return op(O::OpISub, ty, {quotient, op(O::OpSelect, ty, {steps_down, splat(t, 1), zero})});
}

}  // namespace sprig::compiler
