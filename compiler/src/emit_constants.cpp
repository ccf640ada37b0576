// Constants: Constant nodes become module-level OpConstant / OpConstantComposite,
// deduplicated by value, so a constant costs no instruction where it is used.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

// The literal words of one scalar component (64-bit integers take two, low word first).
Words scalar_literal(ir::ScalarKind k, std::uint64_t bits) {
  if (ir::scalar_bits(k) == 64) return {std::uint32_t(bits), std::uint32_t(bits >> 32)};
  return {std::uint32_t(bits)};
}

}  // namespace

Id Emitter::splat(ir::TypeRef shape, std::uint64_t bits) {
  ir::TypeRef scalar = ir::component_type(shape);
  Id scalar_type = type(scalar);
  Id component;
  if (scalar->scalar == ir::ScalarKind::Bool)
    component = m_.constant(bits ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, scalar_type, {});
  else
    component = m_.constant(spv::Op::OpConstant, scalar_type, scalar_literal(scalar->scalar, bits));
  if (!shape->is_vector()) return component;
  Words components(shape->count, component);
  return m_.constant(spv::Op::OpConstantComposite, type(shape), components);
}

Id Emitter::constant(const ir::Node& n) {
  if (n.imm.size() != n.type->components()) fail("a constant needs one value per component", &n);
  ir::TypeRef scalar = ir::component_type(n.type);
  if (!n.type->is_vector()) return splat(scalar, n.imm[0]);
  Words components;
  for (std::uint64_t bits : n.imm) components.push_back(splat(scalar, bits));
  return m_.constant(spv::Op::OpConstantComposite, type(n.type), components);
}

Id Emitter::null(Id type_id) { return m_.constant(spv::Op::OpConstantNull, type_id, {}); }

bool Emitter::uniform_constant(ir::NodeRef n, std::uint64_t& bits) {
  if (n->op != ir::Op::Constant || n->imm.empty()) return false;
  for (std::uint64_t v : n->imm)
    if (v != n->imm[0]) return false;
  bits = n->imm[0];
  return true;
}

}  // namespace sprig::compiler
