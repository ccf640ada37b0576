// The node-creating helpers behind Expr, Place and Var.
#include "sprig/dsl/place.hpp"

namespace sprig::detail {

ir::NodeRef constant(ir::TypeRef type, std::vector<std::uint64_t> components, const SourceLoc& loc) {
  return ir::Builder::current(loc).pure(ir::Op::Constant, type, {}, loc, 0, 0, std::move(components));
}

ir::NodeRef splat(ir::TypeRef vector_type, ir::NodeRef scalar, const SourceLoc& loc) {
  std::vector<ir::NodeRef> components(vector_type->count, scalar);
  return ir::Builder::current(loc).pure(ir::Op::Construct, vector_type, std::move(components), loc);
}

ir::NodeRef construct_vector(ir::TypeRef type, std::vector<ir::NodeRef> parts, const SourceLoc& loc) {
  std::uint32_t count = 0;
  bool constant = true;
  for (ir::NodeRef p : parts) {
    count += p->type->components();
    constant = constant && p->op == ir::Op::Constant;
  }
  if (count != type->count)
    throw TraceError("a " + ir::to_string(type) + " made of " + std::to_string(count) + " components", loc);
  if (!constant) return ir::Builder::current(loc).pure(ir::Op::Construct, type, std::move(parts), loc);
  std::vector<std::uint64_t> bits;
  for (ir::NodeRef p : parts) bits.insert(bits.end(), p->imm.begin(), p->imm.end());
  return detail::constant(type, std::move(bits), loc);
}

ir::NodeRef pure(ir::Op op, ir::TypeRef type, std::vector<ir::NodeRef> operands, const SourceLoc& loc,
                 std::uint64_t a) {
  return ir::Builder::current(loc).pure(op, type, std::move(operands), loc, a);
}

void name_value(ir::NodeRef node, std::string name) { node->name = std::move(name); }

ir::NodeRef load(ir::NodeRef pointer, const SourceLoc& loc) {
  return ir::Builder::current(loc).statement(ir::Op::Load, pointer->type, {pointer}, loc);
}

void store(ir::NodeRef pointer, ir::NodeRef value, const SourceLoc& loc) {
  ir::Builder::current(loc).statement(ir::Op::Store, ir::void_type(), {pointer, value}, loc);
}

ir::NodeRef access(ir::NodeRef base, ir::TypeRef element, ir::NodeRef index, const SourceLoc& loc) {
  return ir::Builder::current(loc).pure(ir::Op::Access, element, {base, index}, loc, 0, 0, {}, base->space);
}

ir::NodeRef access_constant(ir::NodeRef base, ir::TypeRef element, std::uint32_t index, const SourceLoc& loc) {
  ir::NodeRef i = constant(ir::scalar_type(ir::ScalarKind::U32), {index}, loc);
  return access(base, element, i, loc);
}

ir::NodeRef declare_variable(ir::TypeRef type, ir::NodeRef initial, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  std::uint32_t index = b.add_variable(type, "", loc);
  std::vector<ir::NodeRef> operands;
  if (initial) operands.push_back(initial);
  b.statement(ir::Op::DeclareVar, ir::void_type(), std::move(operands), loc, index);
  return b.pure(ir::Op::VarRoot, type, {}, loc, index, 0, {}, ir::Space::Function);
}

void name_variable(ir::NodeRef root, std::string name) {
  ir::Builder& b = ir::Builder::current(root->loc);
  b.function().vars.at(root->a).name = std::move(name);
}

}  // namespace sprig::detail
