// Precise-float mode (ir::Kernel::precise_floats, docs/language.md "Precise floats"): every
// float + - * and negation is decorated NoContraction, so no driver fuses a*b+c into an FMA
// (SPIR-V allows contraction otherwise), and division and square root call functions built
// from 32-bit integer operations, which are exact on every device, instead of OpFDiv (2.5
// ulp in Vulkan) and GLSL.std.450 Sqrt (inherited from 1/inversesqrt).
#include "emitter.hpp"

namespace sprig::compiler {

Id Emitter::float_op(spv::Op opcode, Id result_type, std::initializer_list<Id> operands) {
  Id result = op(opcode, result_type, operands);
  if (kernel_.precise_floats)
    m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate, {result, std::uint32_t(spv::Decoration::NoContraction)});
  return result;
}

// Vulkan lets devices flush denormals, ignore signed zeros, infinities and NaNs in float
// instructions, and pick the rounding mode, unless the entry point declares otherwise
// (float controls, core in SPIR-V 1.4). Division and square root need none of these (they
// are integer code); + - *, conversions and comparisons do, on devices that would differ.
void Emitter::emit_float_controls() {
  struct Control {
    bool allowed;
    spv::Capability capability;
    spv::ExecutionMode mode;
  };
  for (const Control& c : {Control{options_.float32_denorm_preserve, spv::Capability::DenormPreserve,
                                   spv::ExecutionMode::DenormPreserve},
                           Control{options_.float32_signed_zero_inf_nan_preserve, spv::Capability::SignedZeroInfNanPreserve,
                                   spv::ExecutionMode::SignedZeroInfNanPreserve},
                           Control{options_.float32_rounding_mode_rte, spv::Capability::RoundingModeRTE,
                                   spv::ExecutionMode::RoundingModeRTE}}) {
    if (!c.allowed) continue;
    m_.capability(c.capability);
    m_.add(ModuleBuilder::Section::ExecutionModes, spv::Op::OpExecutionMode, {main_, std::uint32_t(c.mode), 32});
  }
}

Id Emitter::helper_function(const std::string& name, ir::TypeRef value_type, unsigned arity,
                            const std::function<Id(const std::vector<Id>&)>& body) {
  auto found = helpers_.find(name);
  if (found != helpers_.end()) return found->second;
  Id id = m_.fresh_id();
  helpers_.emplace(name, id);
  // The helper is built in a function state of its own and appended to the module at once;
  // the function being emitted resumes afterwards (it joins the module when it ends).
  FunctionState caller = std::move(f_);
  f_ = FunctionState{};
  Id value = type(value_type);
  std::vector<Id> param_types(arity, value);
  append_instruction(f_.head, spv::Op::OpFunction,
                     {value, id, std::uint32_t(spv::FunctionControlMask::MaskNone), function_type(value, param_types)});
  std::vector<Id> params;
  for (unsigned i = 0; i < arity; ++i) {
    params.push_back(m_.fresh_id());
    append_instruction(f_.head, spv::Op::OpFunctionParameter, {value, params.back()});
  }
  f_.label = m_.fresh_id();
  append_instruction(f_.head, spv::Op::OpLabel, {f_.label});
  f_.open = true;
  open_debug_helper(name, id, value_type, arity);
  Id result = body(params);
  terminate(spv::Op::OpReturnValue, {result});
  append_instruction(f_.body, spv::Op::OpFunctionEnd, {});
  this->name(id, name);
  Words& out = m_.section(ModuleBuilder::Section::Functions);
  out.insert(out.end(), f_.head.begin(), f_.head.end());
  out.insert(out.end(), f_.body.begin(), f_.body.end());
  f_ = std::move(caller);
  return id;
}

Id Emitter::precise_divide(Id a, Id b, ir::TypeRef t) {
  Id f32 = type(ir::scalar_type(ir::ScalarKind::F32)), fn = divide_function();
  if (!t->is_vector()) return op(spv::Op::OpFunctionCall, f32, {fn, a, b});
  std::vector<Id> as = components(a, t), bs = components(b, t), parts;
  for (std::size_t i = 0; i < as.size(); ++i) parts.push_back(op(spv::Op::OpFunctionCall, f32, {fn, as[i], bs[i]}));
  return compose(t, parts);
}

Id Emitter::precise_sqrt(Id x, ir::TypeRef t) {
  Id f32 = type(ir::scalar_type(ir::ScalarKind::F32)), fn = sqrt_function();
  if (!t->is_vector()) return op(spv::Op::OpFunctionCall, f32, {fn, x});
  std::vector<Id> parts;
  for (Id c : components(x, t)) parts.push_back(op(spv::Op::OpFunctionCall, f32, {fn, c}));
  return compose(t, parts);
}

// Subnormals (biased exponent 0) are shifted up until their leading one reaches bit 23;
// each place shifted lowers the exponent by one, starting from 1, the subnormals' own.
std::pair<Id, Id> Emitter::normalized_significand(Id bits) {
  ir::TypeRef u = ir::scalar_type(ir::ScalarKind::U32);
  Id ut = type(u), bt = bool_type();
  Id exponent = op(spv::Op::OpShiftRightLogical, ut, {bits, u32(23)});
  Id fraction = op(spv::Op::OpBitwiseAnd, ut, {bits, u32(0x7fffff)});
  Id subnormal = op(spv::Op::OpIEqual, bt, {exponent, u32(0)});
  // For a normal number the fraction may be 0 (clz 32): the shift is then 24, still defined.
  Id shift = op(spv::Op::OpISub, ut, {count_leading_zeros32(fraction, u), u32(8)});
  Id shifted = op(spv::Op::OpShiftLeftLogical, ut, {fraction, shift});
  Id with_hidden_bit = op(spv::Op::OpBitwiseOr, ut, {fraction, u32(0x800000)});
  Id significand = op(spv::Op::OpSelect, ut, {subnormal, shifted, with_hidden_bit});
  Id subnormal_exponent = op(spv::Op::OpISub, ut, {u32(1), shift});
  return {significand, op(spv::Op::OpSelect, ut, {subnormal, subnormal_exponent, exponent})};
}

}  // namespace sprig::compiler
