// Variables, pointers, loads and stores. Pointer nodes emit no code where they are
// scheduled: each records its variable and access-chain indices, and the OpAccessChain is
// emitted where a load, store or atomic uses it — one flat chain from the variable, the way
// glslang addresses `y[i]`, which drivers and spirv-opt handle best. Values cross between
// logical and explicit layouts in emit_layout_conversion.cpp.
#include "emitter.hpp"

namespace sprig::compiler {

void Emitter::emit_pointer(const ir::Node& n) {
  Pointer p;
  p.pointee = n.type;
  switch (n.op) {
    case ir::Op::VarRoot:
      p.base = f_.vars.at(n.a);
      break;
    case ir::Op::BufferRoot:
      p.base = buffer_variable(std::uint32_t(n.a));
      p.storage = spv::StorageClass::StorageBuffer;
      p.layout = Layout::Std430;
      p.indices.push_back(u32(0));  // the block's runtime-array member
      break;
    case ir::Op::SharedRoot:
      p.base = shared_variable(std::uint32_t(n.a));
      p.storage = spv::StorageClass::Workgroup;
      break;
    case ir::Op::Access: {
      p = pointer(n.operands[0]);
      p.pointee = n.type;
      p.indices.push_back(value(n.operands[1]));
      break;
    }
    default: fail("not a pointer", &n);
  }
  f_.pointers.at(n.id) = std::move(p);
}

const Pointer& Emitter::pointer(ir::NodeRef n) const {
  const Pointer& p = f_.pointers.at(n->id);
  if (!p.base) fail("internal: pointer used before it was emitted", n);
  return p;
}

Id Emitter::pointer_id(ir::NodeRef n) {
  const Pointer& p = pointer(n);
  if (p.indices.empty()) return p.base;
  // One chain per pointer and block: a load and a store of y[i] in one block share it.
  std::uint64_t key = std::uint64_t(n->id) << 32 | f_.label;
  if (auto it = f_.chains.find(key); it != f_.chains.end()) return it->second;
  Id chain = op(spv::Op::OpAccessChain, pointer_type(p.storage, type(p.pointee, p.layout)), {p.base}, p.indices);
  f_.chains.emplace(key, chain);
  return chain;
}

Id Emitter::load(const Pointer& p, Id ptr) {
  return to_logical(op(spv::Op::OpLoad, type(p.pointee, p.layout), {ptr}), p.pointee, p.layout);
}

void Emitter::store(const Pointer& p, Id ptr, Id v) { op_void(spv::Op::OpStore, {ptr, to_memory(v, p.pointee, p.layout)}); }

// A kernel's value parameters live in the push-constant block, a uniform parameter in its
// uniform block; a callable's parameters are its OpFunctionParameters.
Id Emitter::emit_param(const ir::Node& n) {
  if (!f_.is_entry) return f_.params.at(n.a);
  std::uint32_t index = std::uint32_t(n.a);
  const ir::Param& param = kernel_.params.at(index);
  Pointer p;
  p.pointee = param.type;
  switch (param.kind) {
    case ir::ParamKind::Scalar:
      p.base = push_constant_variable();
      p.storage = spv::StorageClass::PushConstant;
      p.layout = Layout::Std430;
      p.indices.push_back(u32(push_member(index)));
      break;
    case ir::ParamKind::Uniform:
      p.base = uniform_variable(index);
      p.storage = spv::StorageClass::Uniform;
      p.layout = Layout::Std140;
      p.indices.push_back(u32(0));
      break;
    case ir::ParamKind::StorageBuffer: fail("a storage buffer parameter is reached through BufferRoot, not Param", &n);
  }
  Id chain = op(spv::Op::OpAccessChain, pointer_type(p.storage, type(p.pointee, p.layout)), {p.base}, p.indices);
  return load(p, chain);
}

void Emitter::emit_declare_var(const ir::Node& n) {
  const ir::Variable& v = f_.ir->vars.at(n.a);
  Id initial = n.operands.empty() ? null(type(v.type)) : value(n.operands[0]);
  op_void(spv::Op::OpStore, {f_.vars.at(n.a), initial});
}

Id Emitter::emit_load(const ir::Node& n) { return load(pointer(n.operands[0]), pointer_id(n.operands[0])); }

void Emitter::emit_store(const ir::Node& n) {
  store(pointer(n.operands[0]), pointer_id(n.operands[0]), value(n.operands[1]));
}

Id Emitter::emit_array_length(const ir::Node& n) {
  return op(spv::Op::OpArrayLength, uint_type(32), {buffer_variable(std::uint32_t(n.a)), 0});
}

}  // namespace sprig::compiler
