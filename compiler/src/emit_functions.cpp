// Functions: the kernel body as the entry point's void function, and each callable as an
// OpFunction of its own, called with OpFunctionCall as often as the kernel calls it.
// Every local variable of a function is an OpVariable at the top of its first block, as
// SPIR-V requires; DeclareVar stores the initial value where the IR declares it.
#include <algorithm>

#include "emitter.hpp"

namespace sprig::compiler {

void Emitter::emit_function(const ir::Function& f, Id id, bool is_entry) {
  f_ = FunctionState{};
  f_.ir = &f;
  f_.is_entry = is_entry;
  std::uint32_t max_id = 0;
  for (const auto& node : f.nodes) max_id = std::max(max_id, node->id);
  f_.values.assign(std::size_t(max_id) + 1, 0);
  f_.pointers.assign(std::size_t(max_id) + 1, Pointer{});

  f_.result_type = is_entry || !f.result ? void_type() : type(f.result);
  Words param_types;
  for (ir::TypeRef t : f.param_types) param_types.push_back(type(t));
  append_instruction(f_.head, spv::Op::OpFunction,
                     {f_.result_type, id, std::uint32_t(spv::FunctionControlMask::MaskNone),
                      function_type(f_.result_type, param_types)});
  for (Id t : param_types) {
    Id param = m_.fresh_id();
    append_instruction(f_.head, spv::Op::OpFunctionParameter, {t, param});
    f_.params.push_back(param);
  }
  Id entry = m_.fresh_id();
  append_instruction(f_.head, spv::Op::OpLabel, {entry});
  for (const ir::Variable& v : f.vars) {
    Id var = m_.fresh_id();
    append_instruction(f_.head, spv::Op::OpVariable,
                       {pointer_type(spv::StorageClass::Function, type(v.type)), var, std::uint32_t(spv::StorageClass::Function)});
    f_.vars.push_back(var);
    name(var, v.name);
  }
  name(id, is_entry ? kernel_.name : f.name);

  f_.label = entry;
  f_.open = true;
  open_debug_function(f, id, is_entry);
  emit_block(*f.body);
  if (f_.open) {
    // A value-returning callable always ends in a Return; falling off its end is a path
    // the IR never takes.
    f_.pending = {};
    terminate(f_.result_type == void_type() ? spv::Op::OpReturn : spv::Op::OpUnreachable);
  }
  append_instruction(f_.body, spv::Op::OpFunctionEnd, {});

  Words& out = m_.section(ModuleBuilder::Section::Functions);
  out.insert(out.end(), f_.head.begin(), f_.head.end());
  out.insert(out.end(), f_.body.begin(), f_.body.end());
}

Id Emitter::emit_call(const ir::Node& n) {
  std::uint32_t index = std::uint32_t(n.a);
  if (index >= function_ids_.size()) fail("call of an unknown callable", &n);
  Words args;
  for (ir::NodeRef o : n.operands) args.push_back(value(o));
  return op(spv::Op::OpFunctionCall, type(n.type), {function_ids_[index]}, args);
}

}  // namespace sprig::compiler
