// cast<T> (value conversions) and bitcast<T>. Integer widening follows the source's
// signedness, as C++ does; float -> integer truncates and saturates with NaN -> 0
// (semantics.hpp), which OpConvertFTo* alone leaves undefined outside the target range.
// Where the device misorders sign-extended values (CompileOptions::sign_extension_by_shifts)
// sign extension is written with shifts; where it folds int -> float -> int
// (CompileOptions::exact_int_to_float) the int -> float conversion is marked exact.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

// Bit patterns of the f32 powers of two bounding each integer type.
constexpr std::uint64_t f32_zero = 0x00000000, f32_one = 0x3f800000;
constexpr std::uint64_t f32_two_pow_31 = 0x4f000000, f32_two_pow_32 = 0x4f800000;
constexpr std::uint64_t f32_two_pow_63 = 0x5f000000, f32_two_pow_64 = 0x5f800000;
constexpr std::uint64_t f32_minus_two_pow_31 = 0xcf000000, f32_minus_two_pow_63 = 0xdf000000;

}  // namespace

Id Emitter::emit_convert(const ir::Node& n) {
  ir::TypeRef from = n.operands[0]->type, to = n.type;
  Id x = value(n.operands[0]);
  if (from == to) return x;
  Id ty = type(to);
  ir::ScalarKind fk = from->scalar, tk = to->scalar;
  if (fk == ir::ScalarKind::Bool) {
    Id one = splat(to, ir::is_float(tk) ? f32_one : 1);
    return op(spv::Op::OpSelect, ty, {x, one, splat(to, 0)});
  }
  if (tk == ir::ScalarKind::Bool) {
    // As C++'s bool(x): NaN converts to true.
    if (ir::is_float(fk)) return op(spv::Op::OpFUnordNotEqual, ty, {x, splat(from, f32_zero)});
    return op(spv::Op::OpINotEqual, ty, {x, splat(from, 0)});
  }
  if (ir::is_float(fk) && ir::is_float(tk)) return x;
  if (ir::is_float(tk)) return int_to_float(x, from, ty);
  if (ir::is_float(fk)) return float_to_int(x, from, to);
  unsigned from_bits = ir::scalar_bits(fk), to_bits = ir::scalar_bits(tk);
  if (from_bits == to_bits) return op(spv::Op::OpBitcast, ty, {x});
  // OpSConvert may produce either signedness; OpUConvert must produce an unsigned type.
  if (to_bits > from_bits && ir::is_signed(fk)) {
    if (options_.sign_extension_by_shifts) return sign_extend_by_shifts(x, from, to);
    return op(spv::Op::OpSConvert, ty, {x});
  }
  return from_unsigned(op(spv::Op::OpUConvert, type(unsigned_of(to)), {x}), to);
}

// Quirk::IntFloatIntFolded: NoContraction marks the conversion exact in Mesa's front end,
// which keeps its optimizer from folding a float -> int of it back into the integer.
Id Emitter::int_to_float(Id x, ir::TypeRef from, Id float_type) {
  Id result = op(ir::is_signed(from->scalar) ? spv::Op::OpConvertSToF : spv::Op::OpConvertUToF, float_type, {x});
  if (options_.exact_int_to_float)
    m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate, {result, std::uint32_t(spv::Decoration::NoContraction)});
  return result;
}

// Quirk::SignExtendedCompareWithConstant: a driver that misorders OpSConvert's result
// against constants never sees a sign extension: zero-extend, move the sign bit to the top
// and shift it arithmetically back down.
Id Emitter::sign_extend_by_shifts(Id x, ir::TypeRef from, ir::TypeRef to) {
  Id ty = type(to);
  Id widened = from_unsigned(op(spv::Op::OpUConvert, type(unsigned_of(to)), {x}), to);
  unsigned added_bits = ir::scalar_bits(to->scalar) - ir::scalar_bits(from->scalar);
  Id count = splat(ir::with_scalar(to, ir::ScalarKind::U32), added_bits);
  Id sign_on_top = op(spv::Op::OpShiftLeftLogical, ty, {widened, count});
  return shift_right_arithmetic(sign_on_top, count, to);
}

Id Emitter::float_to_int(Id x, ir::TypeRef from, ir::TypeRef to) {
  Id ty = type(to), bools = type(ir::with_scalar(from, ir::ScalarKind::Bool));
  bool is_signed = to->is_signed_int(), wide = ir::scalar_bits(to->scalar) == 64;
  Id converted = op(is_signed ? spv::Op::OpConvertFToS : spv::Op::OpConvertFToU, ty, {x});
  // The bounds are powers of two, exact in f32, so the comparisons are exact.
  std::uint64_t upper = is_signed ? (wide ? f32_two_pow_63 : f32_two_pow_31) : (wide ? f32_two_pow_64 : f32_two_pow_32);
  std::uint64_t max = is_signed ? (wide ? 0x7fffffffffffffffull : 0x7fffffffull) : ~0ull;
  Id too_big = op(spv::Op::OpFOrdGreaterThanEqual, bools, {x, splat(from, upper)});
  Id result = op(spv::Op::OpSelect, ty, {too_big, splat(to, max), converted});
  if (!is_signed) {
    // Ordered >= 0 is false for negatives and for NaN: both give 0.
    Id non_negative = op(spv::Op::OpFOrdGreaterThanEqual, bools, {x, splat(from, f32_zero)});
    return op(spv::Op::OpSelect, ty, {non_negative, result, splat(to, 0)});
  }
  std::uint64_t lower = wide ? f32_minus_two_pow_63 : f32_minus_two_pow_31;
  std::uint64_t min = wide ? 0x8000000000000000ull : 0x80000000ull;
  Id too_small = op(spv::Op::OpFOrdLessThan, bools, {x, splat(from, lower)});
  result = op(spv::Op::OpSelect, ty, {too_small, splat(to, min), result});
  Id nan = op(spv::Op::OpIsNan, bools, {x});
  return op(spv::Op::OpSelect, ty, {nan, splat(to, 0), result});
}

Id Emitter::emit_bitcast(const ir::Node& n) {
  if (n.operands[0]->type == n.type) return value(n.operands[0]);
  if (n.type->is_bool() || n.operands[0]->type->is_bool()) fail("bools have no bit pattern to bitcast", &n);
  return op(spv::Op::OpBitcast, type(n.type), {value(n.operands[0])});
}

}  // namespace sprig::compiler
