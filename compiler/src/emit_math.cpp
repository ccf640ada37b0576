// Math functions through GLSL.std.450 (scalars and vectors), with the integer variants
// of abs/min/max/clamp/sign chosen by signedness; dot, isnan and isinf are core SPIR-V.
// The comments name the semantics.hpp function each instruction must match; where a
// plain kernel's instruction leaves NaN or signed-zero operands to the device,
// emit_precise_math.cpp builds the exact rule for precise kernels.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

struct Variants {
  GLSLstd450 f, s, u;  // float, signed, unsigned (GLSLstd450Bad: none)
};

Variants variants(ir::MathFn fn) {
  using M = ir::MathFn;
  constexpr GLSLstd450 none = GLSLstd450Bad;
  switch (fn) {
    case M::Abs: return {GLSLstd450FAbs, GLSLstd450SAbs, none};  // semantics::abs
    case M::Min: return {GLSLstd450FMin, GLSLstd450SMin, GLSLstd450UMin};  // semantics::min
    case M::Max: return {GLSLstd450FMax, GLSLstd450SMax, GLSLstd450UMax};  // semantics::max
    case M::Clamp: return {GLSLstd450FClamp, GLSLstd450SClamp, GLSLstd450UClamp};  // semantics::clamp
    case M::Sign: return {GLSLstd450FSign, GLSLstd450SSign, none};  // semantics::sign
    case M::Floor: return {GLSLstd450Floor, none, none};  // semantics::floor
    case M::Ceil: return {GLSLstd450Ceil, none, none};  // semantics::ceil
    case M::Fract: return {GLSLstd450Fract, none, none};  // semantics::fract
    case M::Round: return {GLSLstd450RoundEven, none, none};  // semantics::round_even (GLSL's Round leaves halves open)
    case M::Trunc: return {GLSLstd450Trunc, none, none};  // semantics::trunc
    case M::Sqrt: return {GLSLstd450Sqrt, none, none};
    case M::InverseSqrt: return {GLSLstd450InverseSqrt, none, none};
    case M::Exp: return {GLSLstd450Exp, none, none};
    case M::Exp2: return {GLSLstd450Exp2, none, none};
    case M::Log: return {GLSLstd450Log, none, none};
    case M::Log2: return {GLSLstd450Log2, none, none};
    case M::Pow: return {GLSLstd450Pow, none, none};
    case M::Sin: return {GLSLstd450Sin, none, none};
    case M::Cos: return {GLSLstd450Cos, none, none};
    case M::Tan: return {GLSLstd450Tan, none, none};
    case M::Asin: return {GLSLstd450Asin, none, none};
    case M::Acos: return {GLSLstd450Acos, none, none};
    case M::Atan: return {GLSLstd450Atan, none, none};
    case M::Atan2: return {GLSLstd450Atan2, none, none};
    case M::Mix: return {GLSLstd450FMix, none, none};
    case M::Step: return {GLSLstd450Step, none, none};  // semantics::step
    case M::SmoothStep: return {GLSLstd450SmoothStep, none, none};
    case M::Fma: return {GLSLstd450Fma, none, none};
    case M::Cross: return {GLSLstd450Cross, none, none};
    case M::Length: return {GLSLstd450Length, none, none};
    case M::Distance: return {GLSLstd450Distance, none, none};
    case M::Normalize: return {GLSLstd450Normalize, none, none};
    case M::Reflect: return {GLSLstd450Reflect, none, none};
    case M::Refract: return {GLSLstd450Refract, none, none};
    case M::Dot:
    case M::IsNan:
    case M::IsInf: break;
  }
  return {none, none, none};
}

}  // namespace

Id Emitter::emit_math(const ir::Node& n) {
  ir::MathFn fn = ir::MathFn(n.a);
  ir::TypeRef arg = n.operands.at(0)->type;
  if (kernel_.precise_floats && arg->is_float())
    if (Id exact = emit_precise_math(n)) return exact;
  Id ty = type(n.type);
  Words args;
  for (ir::NodeRef o : n.operands) args.push_back(value(o));
  switch (fn) {
    case ir::MathFn::IsNan: return op(spv::Op::OpIsNan, ty, {args[0]});
    case ir::MathFn::IsInf: return op(spv::Op::OpIsInf, ty, {args[0]});
    case ir::MathFn::Dot:
      if (!arg->is_vector()) return op(spv::Op::OpFMul, ty, {args[0], args[1]});
      return op(spv::Op::OpDot, ty, {args[0], args[1]});
    default: break;
  }
  Variants v = variants(fn);
  GLSLstd450 chosen = arg->is_float() ? v.f : arg->is_signed_int() ? v.s : v.u;
  if (fn == ir::MathFn::Abs && arg->is_int() && !arg->is_signed_int()) return args[0];  // |x| == x
  if (chosen == GLSLstd450Bad)
    fail("math function " + std::string(ir::math_function_name(fn)) + " is not defined for " + ir::to_string(arg), &n);
  return op(spv::Op::OpExtInst, ty, {m_.glsl_std_450(), Id(chosen)}, args);
}

}  // namespace sprig::compiler
