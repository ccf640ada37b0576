// Correctly rounded f32 division (round to nearest even) from 32-bit integer operations,
// which every device computes exactly: the precise-float mode's replacement for OpFDiv.
//
// Both significands are normalised to [2^23, 2^24) (subnormals included); if the
// dividend's is the smaller it is doubled, so their quotient lies in [1, 2). Long division
// in 8-bit steps with OpUDiv (remainder < divisor < 2^24, so remainder << 8 fits 32 bits)
// gives 25 quotient bits: 24 for the significand and one rounding bit; a nonzero
// remainder is the sticky bit. Results below the normal range are shifted right with the
// shifted-out bits joining the sticky bit, then rounded once. Rounding may carry into the
// exponent field, which is what (exponent << 23) + significand does by itself, up to
// infinity. Special operands (zeros, infinities, NaNs) are replaced by 1.0 for the
// arithmetic and their result chosen at the end; NaN results are the quiet NaN 0x7fc00000.
#include "emitter.hpp"

namespace sprig::compiler {

Id Emitter::divide_function() {
  return helper_function("sprig_precise_divide", ir::scalar_type(ir::ScalarKind::F32), 2, [this](const std::vector<Id>& params) {
    Id ut = type(ir::scalar_type(ir::ScalarKind::U32)), bt = bool_type();
    auto u = [&](spv::Op code, Id a, Id b) { return op(code, ut, {a, b}); };
    auto test = [&](spv::Op code, Id a, Id b) { return op(code, bt, {a, b}); };
    auto pick = [&](Id cond, Id a, Id b) { return op(spv::Op::OpSelect, ut, {cond, a, b}); };
    auto either = [&](Id a, Id b) { return test(spv::Op::OpLogicalOr, a, b); };
    auto both = [&](Id a, Id b) { return test(spv::Op::OpLogicalAnd, a, b); };
    using O = spv::Op;

    Id a = op(O::OpBitcast, ut, {params[0]}), b = op(O::OpBitcast, ut, {params[1]});
    Id sign = u(O::OpBitwiseAnd, u(O::OpBitwiseXor, a, b), u32(0x80000000));
    Id abs_a = u(O::OpBitwiseAnd, a, u32(0x7fffffff)), abs_b = u(O::OpBitwiseAnd, b, u32(0x7fffffff));
    Id nan_a = test(O::OpUGreaterThan, abs_a, u32(0x7f800000)), nan_b = test(O::OpUGreaterThan, abs_b, u32(0x7f800000));
    Id inf_a = test(O::OpIEqual, abs_a, u32(0x7f800000)), inf_b = test(O::OpIEqual, abs_b, u32(0x7f800000));
    Id zero_a = test(O::OpIEqual, abs_a, u32(0)), zero_b = test(O::OpIEqual, abs_b, u32(0));
    // 0/0, inf/inf and NaN operands give NaN; otherwise x/0 and inf/y are infinite, 0/y and
    // x/inf are zero (the three cases exclude each other once NaN is taken out).
    Id nan = either(either(nan_a, nan_b), either(both(zero_a, zero_b), both(inf_a, inf_b)));
    Id to_infinity = either(inf_a, zero_b), to_zero = either(zero_a, inf_b);
    Id special_a = either(nan_a, either(inf_a, zero_a)), special_b = either(nan_b, either(inf_b, zero_b));
    auto [sig_a, exp_a] = normalized_significand(pick(special_a, u32(0x3f800000), abs_a));
    auto [sig_b, exp_b] = normalized_significand(pick(special_b, u32(0x3f800000), abs_b));

    // The quotient's biased exponent, for a significand quotient in [1, 2).
    Id exponent = u(O::OpIAdd, u(O::OpISub, exp_a, exp_b), u32(127));
    Id smaller = test(O::OpULessThan, sig_a, sig_b);
    Id dividend = pick(smaller, u(O::OpShiftLeftLogical, sig_a, u32(1)), sig_a);
    exponent = pick(smaller, u(O::OpISub, exponent, u32(1)), exponent);
    Id quotient = u32(1), remainder = u(O::OpISub, dividend, sig_b);
    for (int step = 0; step < 3; ++step) {
      Id widened = u(O::OpShiftLeftLogical, remainder, u32(8));
      Id digit = u(O::OpUDiv, widened, sig_b);
      remainder = u(O::OpISub, widened, u(O::OpIMul, digit, sig_b));
      quotient = u(O::OpBitwiseOr, u(O::OpShiftLeftLogical, quotient, u32(8)), digit);
    }
    // quotient: 25 bits in [2^24, 2^25). A normal result drops one bit; a subnormal one
    // 2 - exponent bits (26 or more leave less than half the smallest subnormal: zero).
    Id normal = test(O::OpSGreaterThanEqual, exponent, u32(1));
    Id below = glsl(GLSLstd450UMin, ut, {u(O::OpISub, u32(2), exponent), u32(26)});
    Id drop = pick(normal, u32(1), below);
    Id exponent_field = pick(normal, u(O::OpShiftLeftLogical, u(O::OpISub, exponent, u32(1)), u32(23)), u32(0));
    Id significand = u(O::OpShiftRightLogical, quotient, drop);
    Id round_position = u(O::OpISub, drop, u32(1));
    Id round_bit = u(O::OpBitwiseAnd, u(O::OpShiftRightLogical, quotient, round_position), u32(1));
    Id lost_mask = u(O::OpISub, u(O::OpShiftLeftLogical, u32(1), round_position), u32(1));
    Id lost = u(O::OpBitwiseOr, u(O::OpBitwiseAnd, quotient, lost_mask), remainder);
    Id odd = u(O::OpBitwiseAnd, significand, u32(1));
    Id sticky_or_odd = pick(test(O::OpINotEqual, lost, u32(0)), u32(1), odd);
    Id round_up = u(O::OpBitwiseAnd, round_bit, sticky_or_odd);
    Id rounded = u(O::OpIAdd, u(O::OpIAdd, exponent_field, significand), round_up);
    Id overflow = test(O::OpSGreaterThanEqual, exponent, u32(255));
    Id magnitude = pick(overflow, u32(0x7f800000), rounded);
    magnitude = pick(to_infinity, u32(0x7f800000), pick(to_zero, u32(0), magnitude));
    Id result = pick(nan, u32(0x7fc00000), u(O::OpBitwiseOr, magnitude, sign));
    return op(O::OpBitcast, type(ir::scalar_type(ir::ScalarKind::F32)), {result});
  });
}

}  // namespace sprig::compiler
