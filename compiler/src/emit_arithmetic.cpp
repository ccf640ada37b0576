// + - * / % and unary -, comparisons, logic on bools and select. Integer division and
// remainder (also the building blocks of floor_div and mod) follow semantics.hpp where SPIR-V leaves them undefined: x / 0 == all ones,
// x % 0 == x, MIN / -1 == MIN, MIN % -1 == 0. A divisor known at trace time to be
// neither 0 nor -1 costs no extra instruction.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

std::uint64_t width_mask(ir::TypeRef t) { return ir::scalar_bits(t->scalar) == 64 ? ~0ull : 0xffffffffull; }

}  // namespace

Id Emitter::emit_arithmetic(const ir::Node& n) {
  bool is_float = n.type->is_float();
  Id t = type(n.type);
  Id a = value(n.operands[0]);
  switch (n.op) {
    case ir::Op::Add: return is_float ? float_op(spv::Op::OpFAdd, t, {a, value(n.operands[1])})
                                      : op(spv::Op::OpIAdd, t, {a, value(n.operands[1])});
    case ir::Op::Sub: return is_float ? float_op(spv::Op::OpFSub, t, {a, value(n.operands[1])})
                                      : op(spv::Op::OpISub, t, {a, value(n.operands[1])});
    case ir::Op::Mul: return is_float ? float_op(spv::Op::OpFMul, t, {a, value(n.operands[1])})
                                      : op(spv::Op::OpIMul, t, {a, value(n.operands[1])});
    case ir::Op::Neg: return is_float ? float_op(spv::Op::OpFNegate, t, {a}) : op(spv::Op::OpSNegate, t, {a});
    default: fail("not an arithmetic op", &n);
  }
}

Id Emitter::emit_division(const ir::Node& n) {
  ir::TypeRef t = n.type;
  Id ty = type(t), a = value(n.operands[0]), b = value(n.operands[1]);
  if (t->is_float()) return kernel_.precise_floats ? precise_divide(a, b, t) : op(spv::Op::OpFDiv, ty, {a, b});
  return integer_quotient(t, a, b, n.operands[1]);
}

Id Emitter::integer_quotient(ir::TypeRef t, Id a, Id b, ir::NodeRef divisor) {
  Id ty = type(t);
  bool is_signed = t->is_signed_int();
  // The divisor is never 0 nor -1 here (both are chosen around the division).
  auto divide = [&](Id dividend, Id by) {
    if (bit_serial_division(t)) return divide_bit_serially(dividend, by, t, false, divisor);
    return op(is_signed ? spv::Op::OpSDiv : spv::Op::OpUDiv, ty, {dividend, by});
  };
  std::uint64_t mask = width_mask(t), c = 0;
  if (uniform_constant(divisor, c)) {
    c &= mask;
    if (c == 0) return splat(t, ~0ull);
    if (is_signed && c == mask) return op(spv::Op::OpSNegate, ty, {a});  // wraps: MIN / -1 == MIN
    return divide(a, b);
  }
  Id bools = type(ir::with_scalar(t, ir::ScalarKind::Bool));
  Id zero = splat(t, 0), one = splat(t, 1), ones = splat(t, ~0ull);
  Id by_zero = op(spv::Op::OpIEqual, bools, {b, zero});
  if (!is_signed) {
    Id safe = op(spv::Op::OpSelect, ty, {by_zero, one, b});
    Id quotient = divide(a, safe);
    return op(spv::Op::OpSelect, ty, {by_zero, ones, quotient});
  }
  // Dividing by -1 is negation (which wraps MIN to MIN); dividing by 1 instead keeps
  // OpSDiv away from its undefined MIN / -1 case.
  Id by_minus_one = op(spv::Op::OpIEqual, bools, {b, ones});
  Id risky = op(spv::Op::OpLogicalOr, bools, {by_zero, by_minus_one});
  Id safe = op(spv::Op::OpSelect, ty, {risky, one, b});
  Id quotient = divide(a, safe);
  Id negated = op(spv::Op::OpSNegate, ty, {a});
  Id result = op(spv::Op::OpSelect, ty, {by_minus_one, negated, quotient});
  return op(spv::Op::OpSelect, ty, {by_zero, ones, result});
}

Id Emitter::emit_remainder(const ir::Node& n) {
  ir::TypeRef t = n.type;
  Id ty = type(t), a = value(n.operands[0]), b = value(n.operands[1]);
  // OpFRem and OpSRem give the remainder the dividend's sign, as C++ does.
  if (t->is_float()) return op(spv::Op::OpFRem, ty, {a, b});
  return integer_remainder(t, a, b, n.operands[1]);
}

Id Emitter::integer_remainder(ir::TypeRef t, Id a, Id b, ir::NodeRef divisor) {
  Id ty = type(t);
  bool is_signed = t->is_signed_int();
  std::uint64_t mask = width_mask(t), c = 0;
  bool constant_divisor = uniform_constant(divisor, c);
  c &= mask;
  if (constant_divisor && c == 0) return a;
  if (constant_divisor && is_signed && c == mask) return splat(t, 0);
  Id bools = type(ir::with_scalar(t, ir::ScalarKind::Bool));
  Id safe = b, by_zero = 0;
  if (!constant_divisor) {
    // x % 0 == x and x % -1 == 0 == x % 1: a divisor of 0 or -1 is replaced by 1 (which
    // also keeps MIN % -1, undefined in SPIR-V, away) and the result chosen afterwards.
    Id zero = splat(t, 0), one = splat(t, 1);
    by_zero = op(spv::Op::OpIEqual, bools, {b, zero});
    Id risky = by_zero;
    if (is_signed) risky = op(spv::Op::OpLogicalOr, bools, {by_zero, op(spv::Op::OpIEqual, bools, {b, splat(t, ~0ull)})});
    safe = op(spv::Op::OpSelect, ty, {risky, one, b});
  }
  Id result;
  if (bit_serial_division(t)) {
    result = divide_bit_serially(a, safe, t, true, divisor);
  } else if (!is_signed) {
    result = op(spv::Op::OpUMod, ty, {a, safe});
  } else if (options_.signed_remainder_by_division) {
    // Quirk::SignedRemainderUnsigned: a - b * (a / b), with OpSDiv's truncation.
    Id quotient = op(spv::Op::OpSDiv, ty, {a, safe});
    result = op(spv::Op::OpISub, ty, {a, op(spv::Op::OpIMul, ty, {safe, quotient})});
  } else {
    result = op(spv::Op::OpSRem, ty, {a, safe});
  }
  return constant_divisor ? result : op(spv::Op::OpSelect, ty, {by_zero, a, result});
}

Id Emitter::emit_comparison(const ir::Node& n) {
  ir::TypeRef t = n.operands[0]->type;
  Id a = value(n.operands[0]), b = value(n.operands[1]);
  spv::Op code = spv::Op::OpNop;
  using ir::Op;
  if (t->is_float()) {
    // Ordered, except !=, which is true for NaN operands as in C++.
    switch (n.op) {
      case Op::Eq: code = spv::Op::OpFOrdEqual; break;
      case Op::Ne: code = spv::Op::OpFUnordNotEqual; break;
      case Op::Lt: code = spv::Op::OpFOrdLessThan; break;
      case Op::Le: code = spv::Op::OpFOrdLessThanEqual; break;
      case Op::Gt: code = spv::Op::OpFOrdGreaterThan; break;
      case Op::Ge: code = spv::Op::OpFOrdGreaterThanEqual; break;
      default: break;
    }
  } else if (t->is_bool()) {
    if (n.op == Op::Eq) code = spv::Op::OpLogicalEqual;
    if (n.op == Op::Ne) code = spv::Op::OpLogicalNotEqual;
  } else {
    bool s = t->is_signed_int();
    switch (n.op) {
      case Op::Eq: code = spv::Op::OpIEqual; break;
      case Op::Ne: code = spv::Op::OpINotEqual; break;
      case Op::Lt: code = s ? spv::Op::OpSLessThan : spv::Op::OpULessThan; break;
      case Op::Le: code = s ? spv::Op::OpSLessThanEqual : spv::Op::OpULessThanEqual; break;
      case Op::Gt: code = s ? spv::Op::OpSGreaterThan : spv::Op::OpUGreaterThan; break;
      case Op::Ge: code = s ? spv::Op::OpSGreaterThanEqual : spv::Op::OpUGreaterThanEqual; break;
      default: break;
    }
  }
  if (code == spv::Op::OpNop) fail("comparison not defined for " + ir::to_string(t), &n);
  return op(code, type(n.type), {a, b});
}

Id Emitter::emit_logic(const ir::Node& n) {
  Id t = type(n.type), a = value(n.operands[0]);
  switch (n.op) {
    case ir::Op::LogicalAnd: return op(spv::Op::OpLogicalAnd, t, {a, value(n.operands[1])});
    case ir::Op::LogicalOr: return op(spv::Op::OpLogicalOr, t, {a, value(n.operands[1])});
    case ir::Op::LogicalNot: return op(spv::Op::OpLogicalNot, t, {a});
    default: fail("not a logical op", &n);
  }
}

// A scalar condition may choose between whole vectors (SPIR-V 1.4 and later).
Id Emitter::emit_select(const ir::Node& n) {
  return op(spv::Op::OpSelect, type(n.type), {value(n.operands[0]), value(n.operands[1]), value(n.operands[2])});
}

}  // namespace sprig::compiler
