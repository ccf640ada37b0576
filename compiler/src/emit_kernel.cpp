// The module around the kernel: capabilities, memory model, the GLCompute entry point
// "main" with its interface and LocalSize, then the functions. Capabilities beyond Shader
// are added by the code that needs them (Int64 with the first 64-bit type, Int64Atomics,
// GroupNonUniform*), so a module declares exactly what it uses.
#include "emitter.hpp"

namespace sprig::compiler {

void Emitter::emit_header() {
  m_.capability(spv::Capability::Shader);
  // GLSL450 rather than Vulkan: see the memory-model note in emitter.hpp.
  m_.add(ModuleBuilder::Section::MemoryModel, spv::Op::OpMemoryModel,
         {std::uint32_t(spv::AddressingModel::Logical), std::uint32_t(spv::MemoryModel::GLSL450)});
}

void Emitter::emit_entry_point() {
  Words operands = literal_string("main");
  operands.insert(operands.end(), interface_.begin(), interface_.end());
  m_.add(ModuleBuilder::Section::EntryPoints, spv::Op::OpEntryPoint, {std::uint32_t(spv::ExecutionModel::GLCompute), main_},
         operands);
  const auto& size = kernel_.workgroup_size;
  m_.add(ModuleBuilder::Section::ExecutionModes, spv::Op::OpExecutionMode,
         {main_, std::uint32_t(spv::ExecutionMode::LocalSize), size[0], size[1], size[2]});
  if (kernel_.precise_floats) emit_float_controls();
}

Words Emitter::run() {
  emit_header();
  param_variables_.assign(kernel_.params.size(), 0);
  shared_variables_.assign(kernel_.shared.size(), 0);
  if (debug_ && kernel_.loc.known()) file_string(kernel_.loc.file);
  begin_source_debug();
  main_ = m_.fresh_id();
  for (std::size_t i = 0; i < kernel_.functions.size(); ++i) function_ids_.push_back(m_.fresh_id());
  if (!kernel_.entry.body) fail("the kernel has no body");
  emit_function(kernel_.entry, main_, true);
  for (std::size_t i = 0; i < kernel_.functions.size(); ++i) emit_function(*kernel_.functions[i], function_ids_[i], false);
  emit_entry_point();
  return m_.finish();
}

}  // namespace sprig::compiler
