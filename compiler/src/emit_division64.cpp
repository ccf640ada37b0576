// 64-bit integer division without OpUDiv / OpSDiv / OpUMod / OpSRem, for the driver whose
// shader compiler crashes on 64-bit division in modules that also count ballot bits
// (Quirk::BallotBeside64BitDivisionCrash). The crash needs the 64-bit division, so the
// workaround replaces only that, and only in modules that use ballots: a helper function
// does restoring long division, one quotient bit per step, unrolled (64 steps of about eight
// instructions; the GPU has no 64-bit divider, so the driver's own division is a loop too).
// Inlined with a constant divisor, NVIDIA's compiler folded the helper into quotients off
// by one (fuzz seeds 1835 and 8493), and kept as a call (DontInline) it crashed the
// compiler beside another function with a loop (CI seed 73); so constant divisors, the
// only ones the folding can see, divide by multiplication instead.
#include <algorithm>
#include <bit>

#include "emitter.hpp"

namespace sprig::compiler {

bool Emitter::bit_serial_division(ir::TypeRef t) const {
  return options_.bit_serial_64_bit_division && kernel_.features.subgroup_ballot && ir::scalar_bits(t->scalar) == 64;
}

// uint64 a / b for b != 0. The partial remainder stays below b; shifting it left may carry
// out of 64 bits when b > 2^63, and then it is certainly at least b.
Id Emitter::unsigned_divide_64_function() {
  ir::TypeRef u64 = ir::scalar_type(ir::ScalarKind::U64);
  return helper_function("sprig_unsigned_divide_64", u64, 2, [this, u64](const std::vector<Id>& params) {
    using O = spv::Op;
    Id ut = type(u64), bt = bool_type();
    Id a = params[0], b = params[1], zero = splat(u64, 0), one = splat(u64, 1);
    Id remainder = zero, quotient = zero;
    for (int bit = 63; bit >= 0; --bit) {
      Id carried = op(O::OpINotEqual, bt, {op(O::OpShiftRightLogical, ut, {remainder, splat(u64, 63)}), zero});
      Id next_bit = op(O::OpBitwiseAnd, ut, {op(O::OpShiftRightLogical, ut, {a, splat(u64, std::uint64_t(bit))}), one});
      remainder = op(O::OpBitwiseOr, ut, {op(O::OpShiftLeftLogical, ut, {remainder, one}), next_bit});
      Id fits = op(O::OpLogicalOr, bt, {carried, op(O::OpUGreaterThanEqual, bt, {remainder, b})});
      remainder = op(O::OpSelect, ut, {fits, op(O::OpISub, ut, {remainder, b}), remainder});
      quotient = op(O::OpBitwiseOr, ut, {quotient, op(O::OpSelect, ut, {fits, splat(u64, 1ull << bit), zero})});
    }
    return quotient;
  });
}

// n / d for uint64 n and a constant d >= 1, by multiplying with a magic number and
// shifting (Granlund and Montgomery, "Division by Invariant Integers using Multiplication",
// 1994, figure 4.1): with l = ceil(log2 d) and m = floor(2^64 (2^l - d) / d) + 1,
// t = mulhi(m, n) and n / d = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0), exact for
// every n. Constant divisors take this path so that no division reaches the driver.
Id Emitter::divide_by_constant_64(Id n, std::uint64_t d) {
  using O = spv::Op;
  ir::TypeRef u64 = ir::scalar_type(ir::ScalarKind::U64);
  Id ut = type(u64);
  unsigned l = d == 1 ? 0 : 64 - unsigned(std::countl_zero(d - 1));
  unsigned __int128 scaled = ((static_cast<unsigned __int128>(1) << l) - d) << 64;
  std::uint64_t magic = std::uint64_t(scaled / d + 1);
  Id pair = op(O::OpUMulExtended, m_.type(O::OpTypeStruct, {ut, ut}), {splat(u64, magic), n});
  Id high = op(O::OpCompositeExtract, ut, {pair, 1u});
  Id halfway = op(O::OpShiftRightLogical, ut, {op(O::OpISub, ut, {n, high}), splat(u64, std::min(l, 1u))});
  return op(O::OpShiftRightLogical, ut, {op(O::OpIAdd, ut, {high, halfway}), splat(u64, l > 0 ? l - 1 : 0)});
}

// Signed operands divide as magnitudes (MIN's magnitude, 2^63, is right as uint64) and the
// quotient takes the sign of a * b; the remainder a - b * q then has a's sign, as C++'s.
// A constant divisor (never 0 nor -1 here) divides by multiplication instead of the helper.
Id Emitter::divide_bit_serially(Id a, Id b, ir::TypeRef t, bool remainder, ir::NodeRef divisor) {
  using O = spv::Op;
  ir::TypeRef scalar = ir::component_type(t);
  bool is_signed = scalar->is_signed_int();
  std::uint64_t c = 0;
  const bool constant = uniform_constant(divisor, c);
  const bool constant_negative = constant && is_signed && std::int64_t(c) < 0;
  const std::uint64_t constant_magnitude = constant_negative ? 0 - c : c;
  Id st = type(scalar), ut = uint_type(64), bt = bool_type();
  auto divide_magnitudes = [&](Id x, Id y) {
    if (constant) return divide_by_constant_64(x, constant_magnitude);
    return op(O::OpFunctionCall, ut, {unsigned_divide_64_function(), x, y});
  };
  std::vector<Id> as = components(a, t), bs = components(b, t), parts;
  for (std::size_t i = 0; i < as.size(); ++i) {
    Id x = as[i], y = bs[i], quotient = 0;
    if (!is_signed) {
      quotient = divide_magnitudes(x, y);
    } else {
      Id zero = splat(scalar, 0);
      Id x_negative = op(O::OpSLessThan, bt, {x, zero});
      Id y_negative = constant ? 0 : op(O::OpSLessThan, bt, {y, zero});
      Id x_magnitude = op(O::OpBitcast, ut, {op(O::OpSelect, st, {x_negative, op(O::OpSNegate, st, {x}), x})});
      Id y_magnitude = constant ? 0 : op(O::OpBitcast, ut, {op(O::OpSelect, st, {y_negative, op(O::OpSNegate, st, {y}), y})});
      Id magnitude = op(O::OpBitcast, st, {divide_magnitudes(x_magnitude, y_magnitude)});
      Id negative = !constant ? op(O::OpLogicalNotEqual, bt, {x_negative, y_negative})
                    : constant_negative ? op(O::OpLogicalNot, bt, {x_negative})
                                        : x_negative;
      quotient = op(O::OpSelect, st, {negative, op(O::OpSNegate, st, {magnitude}), magnitude});
    }
    parts.push_back(remainder ? op(O::OpISub, st, {x, op(O::OpIMul, st, {y, quotient})}) : quotient);
  }
  return compose(t, parts);
}

}  // namespace sprig::compiler
