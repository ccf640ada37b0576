// The kernel's interface: storage buffers (set 0, Param::binding, std430 `struct { T
// data[]; }` Blocks), uniform buffers (std140 `struct { S value; }` Blocks), one
// push-constant Block holding every value parameter at its Param::push_offset, built-in
// inputs and workgroup-shared variables. Each is declared on first use and listed in the
// entry point's interface (required for every global variable since SPIR-V 1.4).
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

void decorate(ModuleBuilder& m, Id id, spv::Decoration d, std::initializer_list<std::uint32_t> extra = {}) {
  m.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate, {id, std::uint32_t(d)}, Words(extra));
}

void decorate_member(ModuleBuilder& m, Id id, std::uint32_t member, spv::Decoration d,
                     std::initializer_list<std::uint32_t> extra = {}) {
  m.add(ModuleBuilder::Section::Annotations, spv::Op::OpMemberDecorate, {id, member, std::uint32_t(d)}, Words(extra));
}

spv::BuiltIn builtin_of(ir::Builtin b) {
  switch (b) {
    case ir::Builtin::GlobalInvocationId: return spv::BuiltIn::GlobalInvocationId;
    case ir::Builtin::LocalInvocationId: return spv::BuiltIn::LocalInvocationId;
    case ir::Builtin::WorkgroupId: return spv::BuiltIn::WorkgroupId;
    case ir::Builtin::NumWorkgroups: return spv::BuiltIn::NumWorkgroups;
    case ir::Builtin::WorkgroupSize: return spv::BuiltIn::WorkgroupSize;
    case ir::Builtin::LocalInvocationIndex: return spv::BuiltIn::LocalInvocationIndex;
    case ir::Builtin::SubgroupSize: return spv::BuiltIn::SubgroupSize;
    case ir::Builtin::SubgroupInvocationId: return spv::BuiltIn::SubgroupLocalInvocationId;
    case ir::Builtin::SubgroupId: return spv::BuiltIn::SubgroupId;
    case ir::Builtin::NumSubgroups: return spv::BuiltIn::NumSubgroups;
  }
  return spv::BuiltIn::Max;
}

}  // namespace

Id Emitter::global_variable(Id pointee, spv::StorageClass storage, const std::string& var_name) {
  Id id = m_.fresh_id();
  m_.add(ModuleBuilder::Section::Globals, spv::Op::OpVariable, {pointer_type(storage, pointee), id, std::uint32_t(storage)});
  interface_.push_back(id);
  name(id, var_name);
  return id;
}

Id Emitter::buffer_variable(std::uint32_t param) {
  if (param_variables_[param]) return param_variables_[param];
  const ir::Param& p = kernel_.params.at(param);
  if (p.kind != ir::ParamKind::StorageBuffer) fail("parameter " + std::to_string(param) + " is not a storage buffer");
  Id block = m_.distinct_type(spv::Op::OpTypeStruct, Words{runtime_array_type(p.type)});
  decorate(m_, block, spv::Decoration::Block);
  decorate_member(m_, block, 0, spv::Decoration::Offset, {0});
  // Access qualifiers let the driver skip coherence work; Coherent keeps writes visible to
  // other workgroups while the kernel runs (GLSL450 memory model, see emitter.hpp).
  if (p.access == ir::Access::Read) decorate_member(m_, block, 0, spv::Decoration::NonWritable);
  if (p.access == ir::Access::Write) decorate_member(m_, block, 0, spv::Decoration::NonReadable);
  if (p.coherent) decorate_member(m_, block, 0, spv::Decoration::Coherent);
  name(block, p.name + "_block");
  member_name(block, 0, "data");
  Id var = global_variable(block, spv::StorageClass::StorageBuffer, p.name);
  decorate(m_, var, spv::Decoration::DescriptorSet, {0});
  decorate(m_, var, spv::Decoration::Binding, {p.binding});
  if (source_debug_) debug_global_variable(var, p.name, debug_buffer_type(p), kernel_.loc);
  return param_variables_[param] = var;
}

Id Emitter::uniform_variable(std::uint32_t param) {
  if (param_variables_[param]) return param_variables_[param];
  const ir::Param& p = kernel_.params.at(param);
  // Wrapping S in a Block of its own leaves S free to appear elsewhere undecorated.
  Id block = m_.distinct_type(spv::Op::OpTypeStruct, Words{type(p.type, Layout::Std140)});
  decorate(m_, block, spv::Decoration::Block);
  decorate_member(m_, block, 0, spv::Decoration::Offset, {0});
  name(block, p.name + "_block");
  member_name(block, 0, "value");
  Id var = global_variable(block, spv::StorageClass::Uniform, p.name);
  decorate(m_, var, spv::Decoration::DescriptorSet, {0});
  decorate(m_, var, spv::Decoration::Binding, {p.binding});
  if (source_debug_) {
    Id value = debug_type(p.type);
    std::uint32_t bytes = ir::layout_of(p.type, ir::LayoutRule::Std140).size;
    Id block_type = debug_composite(p.name + "_block", bytes, {DebugMember{"value", value, 0, bytes}});
    debug_global_variable(var, p.name, block_type, kernel_.loc);
  }
  return param_variables_[param] = var;
}

// Member index of a value parameter in the push-constant block.
std::uint32_t Emitter::push_member(std::uint32_t param) const {
  std::uint32_t member = 0;
  for (std::uint32_t i = 0; i < param; ++i)
    if (kernel_.params[i].kind == ir::ParamKind::Scalar) ++member;
  return member;
}

Id Emitter::push_constant_variable() {
  if (push_constants_) return push_constants_;
  Words members;
  for (const ir::Param& p : kernel_.params)
    if (p.kind == ir::ParamKind::Scalar) members.push_back(type(p.type, Layout::Std430));
  Id block = m_.distinct_type(spv::Op::OpTypeStruct, members);
  decorate(m_, block, spv::Decoration::Block);
  name(block, "push_constants_block");
  std::uint32_t member = 0;
  for (const ir::Param& p : kernel_.params) {
    if (p.kind != ir::ParamKind::Scalar) continue;
    decorate_member(m_, block, member, spv::Decoration::Offset, {p.push_offset});
    member_name(block, member, p.name);
    ++member;
  }
  push_constants_ = global_variable(block, spv::StorageClass::PushConstant, "push_constants");
  if (source_debug_) debug_global_variable(push_constants_, "push_constants", debug_push_constant_type(), kernel_.loc);
  return push_constants_;
}

Id Emitter::builtin_value(const ir::Node& n) {
  ir::Builtin which = ir::Builtin(n.a);
  if (which == ir::Builtin::WorkgroupSize) {
    // A constant of the kernel: no input variable needed.
    Words sizes;
    for (std::uint32_t s : kernel_.workgroup_size) sizes.push_back(u32(s));
    return m_.constant(spv::Op::OpConstantComposite, type(n.type), sizes);
  }
  return op(spv::Op::OpLoad, type(n.type), {builtin_input(which, n.type)});
}

Id Emitter::builtin_input(ir::Builtin which, ir::TypeRef t) {
  if (ir::needs_subgroups(which)) m_.capability(spv::Capability::GroupNonUniform);
  Id& var = builtins_[which];
  if (!var) {
    // Each input variable is named after the DSL function that reads it.
    static constexpr const char* names[] = {
#define SPRIG_BUILTIN(Name, function, T, needs) #function,
#include "sprig/dsl/builtins.def"
#undef SPRIG_BUILTIN
    };
    var = global_variable(type(t), spv::StorageClass::Input, names[std::size_t(which)]);
    decorate(m_, var, spv::Decoration::BuiltIn, {std::uint32_t(builtin_of(which))});
  }
  return var;
}

Id Emitter::shared_variable(std::uint32_t index) {
  Id& var = shared_variables_.at(index);
  if (!var) {
    const ir::SharedVariable& s = kernel_.shared[index];
    var = global_variable(type(s.type), spv::StorageClass::Workgroup, s.name);
    if (source_debug_) debug_global_variable(var, s.name, debug_type(s.type), s.loc);
  }
  return var;
}

}  // namespace sprig::compiler
