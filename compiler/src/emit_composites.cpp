// Vectors, structs and arrays as values: construction, constant-index extract/insert,
// dynamic vector component selection and swizzles.
#include "emitter.hpp"

namespace sprig::compiler {

Id Emitter::emit_construct(const ir::Node& n) {
  Words parts;
  bool all_constant = true;
  for (ir::NodeRef o : n.operands) {
    parts.push_back(value(o));
    // A constant vector lists scalars only; vector parts (Vec4(xy, z, w)) need the instruction.
    all_constant = all_constant && o->op == ir::Op::Constant && !(n.type->is_vector() && o->type->is_vector());
  }
  // A splat of a literal (v * 2.0f) is a module constant, not an instruction.
  if (all_constant && !parts.empty()) return m_.constant(spv::Op::OpConstantComposite, type(n.type), parts);
  return op(spv::Op::OpCompositeConstruct, type(n.type), {}, parts);
}

Id Emitter::emit_extract(const ir::Node& n) {
  return op(spv::Op::OpCompositeExtract, type(n.type), {value(n.operands[0]), std::uint32_t(n.a)});
}

Id Emitter::emit_insert(const ir::Node& n) {
  return op(spv::Op::OpCompositeInsert, type(n.type),
            {value(n.operands[1]), value(n.operands[0]), std::uint32_t(n.a)});
}

Id Emitter::emit_dynamic_extract(const ir::Node& n) {
  return op(spv::Op::OpVectorExtractDynamic, type(n.type), {value(n.operands[0]), value(n.operands[1])});
}

Id Emitter::emit_shuffle(const ir::Node& n) {
  Words indices(n.imm.begin(), n.imm.end());
  return op(spv::Op::OpVectorShuffle, type(n.type), {value(n.operands[0]), value(n.operands[1])}, indices);
}

}  // namespace sprig::compiler
