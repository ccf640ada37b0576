// Instruction-level helpers of the emitter: appending to the current function, blocks and
// their terminators, node values.
#include "emitter.hpp"

#include "sprig/compiler/compile.hpp"

namespace sprig::compiler {

Emitter::Emitter(const ir::Kernel& kernel, const CompileOptions& options)
    : kernel_(kernel), debug_(options.debug_info), source_debug_(options.source_debug_info), options_(options) {}

Id Emitter::op(spv::Op opcode, Id result_type, std::initializer_list<Id> operands, std::span<const Id> tail) {
  source_line();
  Id result = m_.fresh_id();
  Words all{result_type, result};
  all.insert(all.end(), operands.begin(), operands.end());
  all.insert(all.end(), tail.begin(), tail.end());
  append_instruction(f_.body, opcode, {}, all);
  return result;
}

void Emitter::op_void(spv::Op opcode, std::initializer_list<Id> operands, std::span<const Id> tail) {
  source_line();
  append_instruction(f_.body, opcode, operands, tail);
  f_.after_merge = opcode == spv::Op::OpSelectionMerge || opcode == spv::Op::OpLoopMerge;
}

Id Emitter::glsl(GLSLstd450 fn, Id result_type, std::initializer_list<Id> operands) {
  Id set = m_.glsl_std_450();
  return op(spv::Op::OpExtInst, result_type, {set, Id(fn)}, Words(operands));
}

void Emitter::label(Id id) {
  append_instruction(f_.body, spv::Op::OpLabel, {id});
  f_.label = id;
  f_.open = true;
  f_.line_file = 0;  // an OpLine's scope ends with its block, and so do a DebugLine's and a DebugScope's
  f_.debug_line_source = 0;
  f_.after_merge = false;
  debug_scope();
}

void Emitter::terminate(spv::Op opcode, std::initializer_list<Id> operands) {
  op_void(opcode, operands);
  f_.open = false;
}

Id Emitter::value(ir::NodeRef n) const {
  Id v = n->id < f_.values.size() ? f_.values[n->id] : 0;
  if (!v) fail(std::string("internal: ") + std::string(ir::op_name(n->op)) + " node used before it was emitted", n);
  return v;
}

void Emitter::fail(const std::string& message, const ir::Node* where) const {
  SourceLoc loc = where && where->loc.known() ? where->loc : kernel_.loc;
  throw CompileError(describe("SPIR-V emission: " + message, kernel_.name, loc));
}

}  // namespace sprig::compiler
