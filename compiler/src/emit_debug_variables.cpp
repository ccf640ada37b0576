// Source-level debug info: variables. Each Var<T> of a function is a DebugLocalVariable
// declared on its OpVariable (DebugDeclare), under the name Var::named gave it; each named
// value (Expr::named) is a DebugLocalVariable whose value DebugValue records where it is
// computed; the kernel's buffers, uniforms, value parameters (the push-constant block) and
// shared variables are DebugGlobalVariables on their interface variables.
#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>

#include "emitter.hpp"

namespace sprig::compiler {

Id Emitter::debug_local_variable(const std::string& variable_name, ir::TypeRef t, const SourceLoc& loc, Id scope,
                                 std::uint32_t flags, std::uint32_t arg_number) {
  SourceLoc where = loc.known() ? loc : kernel_.loc;
  Id source = debug_source(where.known() ? where.file : "");
  Id type = debug_type(t);
  Id name_id = debug_string(variable_name);
  if (arg_number == 0) {
    return debug_global(NonSemanticShaderDebugInfo100DebugLocalVariable,
                        {name_id, type, source, u32(where.line), u32(where.column), scope, u32(flags)});
  }
  return debug_global(NonSemanticShaderDebugInfo100DebugLocalVariable,
                      {name_id, type, source, u32(where.line), u32(where.column), scope, u32(flags), u32(arg_number)});
}

void Emitter::debug_value(const ir::Node& n, Id value) {
  if (!source_debug_ || n.name.empty() || !f_.debug_scope || !f_.open) return;
  // One variable per name and function, however often the name is given.
  auto [it, inserted] = sd_.values.try_emplace({f_.debug_scope, n.name}, 0);
  if (inserted) {
    it->second = debug_local_variable(n.name, n.type, n.loc, f_.debug_scope, NonSemanticShaderDebugInfo100FlagIsLocal);
  }
  debug_local(NonSemanticShaderDebugInfo100DebugValue, {it->second, value, sd_.expression});
}

void Emitter::debug_global_variable(Id variable, const std::string& variable_name, Id debug_type,
                                    const SourceLoc& loc) {
  if (!source_debug_) return;
  SourceLoc where = loc.known() ? loc : kernel_.loc;
  Id source = debug_source(where.known() ? where.file : "");
  Id name_id = debug_string(variable_name);
  debug_global(NonSemanticShaderDebugInfo100DebugGlobalVariable,
               {name_id, debug_type, source, u32(where.line), u32(where.column), sd_.compilation_unit, name_id,
                variable, u32(NonSemanticShaderDebugInfo100FlagIsDefinition)});
}

// `struct { T data[]; }`, as the buffer's interface block declares it.
Id Emitter::debug_buffer_type(const ir::Param& p) {
  Id elements = debug_global(NonSemanticShaderDebugInfo100DebugTypeArray, {debug_type(p.type), u32(0)});
  return debug_composite(p.name + "_block", 0, {DebugMember{"data", elements, 0, 0}});
}

// The value parameters at their push-constant offsets, named as the kernel names them.
Id Emitter::debug_push_constant_type() {
  std::vector<DebugMember> members;
  for (const ir::Param& p : kernel_.params) {
    if (p.kind != ir::ParamKind::Scalar) continue;
    members.push_back({p.name, debug_type(p.type), p.push_offset, ir::layout_of(p.type, ir::LayoutRule::Std430).size});
  }
  return debug_composite("push_constants_block", kernel_.push_constant_size, members);
}

}  // namespace sprig::compiler
