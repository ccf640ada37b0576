// Correctly rounded f32 square root (round to nearest even) from 32-bit integer
// operations: the precise-float mode's replacement for GLSL.std.450 Sqrt, whose Vulkan
// precision is only inherited from 1/inversesqrt.
//
// The normalised significand m in [2^23, 2^24) with exponent t (x = m * 2^t) is widened to
// a radicand R = m * 2^j, j in {25, 26} chosen so that t - j is even; then sqrt(x) =
// sqrt(R) * 2^((t - j) / 2) and R in [2^48, 2^50) has a 25-bit integer root: 24 bits of
// significand and a rounding bit, with a nonzero remainder as the sticky bit. The root is
// found digit by digit, two radicand bits per step (the classic restoring method; the
// remainder never exceeds twice the root, so it fits 32 bits); R's 50 bits are fed from
// one word holding m, left-aligned, followed by zeros. Every positive f32 has a normal
// square root, so only rounding can carry into the exponent. sqrt(±0) = ±0, sqrt(+inf) =
// +inf, and negative numbers and NaN give the quiet NaN 0x7fc00000.
#include "emitter.hpp"

namespace sprig::compiler {

Id Emitter::sqrt_function() {
  return helper_function("sprig_precise_sqrt", ir::scalar_type(ir::ScalarKind::F32), 1, [this](const std::vector<Id>& params) {
    Id ut = type(ir::scalar_type(ir::ScalarKind::U32)), bt = bool_type();
    auto u = [&](spv::Op code, Id a, Id b) { return op(code, ut, {a, b}); };
    auto test = [&](spv::Op code, Id a, Id b) { return op(code, bt, {a, b}); };
    auto pick = [&](Id cond, Id a, Id b) { return op(spv::Op::OpSelect, ut, {cond, a, b}); };
    using O = spv::Op;

    Id x = op(O::OpBitcast, ut, {params[0]});
    Id magnitude = u(O::OpBitwiseAnd, x, u32(0x7fffffff));
    Id negative = test(O::OpINotEqual, magnitude, x);
    Id zero = test(O::OpIEqual, magnitude, u32(0));
    Id negative_nonzero = test(O::OpLogicalAnd, negative, test(O::OpINotEqual, magnitude, u32(0)));
    Id invalid = test(O::OpLogicalOr, test(O::OpUGreaterThan, magnitude, u32(0x7f800000)), negative_nonzero);
    Id unchanged = test(O::OpLogicalOr, zero, test(O::OpIEqual, x, u32(0x7f800000)));  // ±0, +inf
    Id special = test(O::OpLogicalOr, invalid, unchanged);
    auto [significand, exponent] = normalized_significand(pick(special, u32(0x3f800000), magnitude));

    // t = exponent - 150 has exponent's parity (150 is even): j = 25 for odd t, 26 for even.
    Id odd = u(O::OpBitwiseAnd, exponent, u32(1));
    Id j = u(O::OpISub, u32(26), odd);
    Id bits = u(O::OpShiftLeftLogical, significand, u(O::OpISub, j, u32(18)));  // R's bit 49 at bit 31
    Id root = u32(0), remainder = u32(0);
    for (int step = 0; step < 25; ++step) {
      remainder = u(O::OpBitwiseOr, u(O::OpShiftLeftLogical, remainder, u32(2)), u(O::OpShiftRightLogical, bits, u32(30)));
      bits = u(O::OpShiftLeftLogical, bits, u32(2));
      Id trial = u(O::OpBitwiseOr, u(O::OpShiftLeftLogical, root, u32(2)), u32(1));
      Id fits = test(O::OpUGreaterThanEqual, remainder, trial);
      remainder = pick(fits, u(O::OpISub, remainder, trial), remainder);
      root = u(O::OpBitwiseOr, u(O::OpShiftLeftLogical, root, u32(1)), pick(fits, u32(1), u32(0)));
    }
    // root in [2^24, 2^25) stands for root * 2^((t - j) / 2): biased exponent
    // 127 + 24 + (exponent - 150 - j) / 2, the halving exact because the sum is even.
    Id half = op(O::OpShiftRightArithmetic, ut, {u(O::OpISub, u(O::OpISub, exponent, u32(150)), j), u32(1)});
    Id result_exponent = u(O::OpIAdd, half, u32(151));
    Id kept = u(O::OpShiftRightLogical, root, u32(1));
    Id round_bit = u(O::OpBitwiseAnd, root, u32(1));
    Id sticky_or_odd = pick(test(O::OpINotEqual, remainder, u32(0)), u32(1), u(O::OpBitwiseAnd, kept, u32(1)));
    Id round_up = u(O::OpBitwiseAnd, round_bit, sticky_or_odd);
    Id exponent_field = u(O::OpShiftLeftLogical, u(O::OpISub, result_exponent, u32(1)), u32(23));
    Id rounded = u(O::OpIAdd, u(O::OpIAdd, exponent_field, kept), round_up);
    Id result = pick(invalid, u32(0x7fc00000), pick(unchanged, x, rounded));
    return op(O::OpBitcast, type(ir::scalar_type(ir::ScalarKind::F32)), {result});
  });
}

}  // namespace sprig::compiler
