// Values crossing between a logical type and its explicitly laid-out twin (std430 /
// std140), on loads from and stores to buffers, uniforms and push constants. Bools are
// uint32 0/1 in memory: a load tests != 0, a store selects 1 or 0. Aggregates without
// bools convert in one OpCopyLogical (SPIR-V 1.4); with bools, member by member.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

bool contains_bool(ir::TypeRef t) {
  switch (t->kind) {
    case ir::Type::Kind::Scalar:
    case ir::Type::Kind::Vector: return t->scalar == ir::ScalarKind::Bool;
    case ir::Type::Kind::Array: return contains_bool(t->element);
    case ir::Type::Kind::Struct:
      for (const ir::Field& f : t->fields)
        if (contains_bool(f.type)) return true;
      return false;
    case ir::Type::Kind::Void: return false;
  }
  return false;
}

ir::TypeRef member_type(ir::TypeRef t, std::uint32_t i) { return t->is_struct() ? t->fields[i].type : t->element; }

std::uint32_t member_count(ir::TypeRef t) { return t->is_struct() ? std::uint32_t(t->fields.size()) : t->count; }

}  // namespace

Id Emitter::to_logical(Id v, ir::TypeRef t, Layout from) {
  if (from == Layout::Logical || !contains_bool(t)) {
    if (from == Layout::Logical || t->is_scalar() || t->is_vector()) return v;
    return op(spv::Op::OpCopyLogical, type(t), {v});
  }
  if (t->is_scalar() || t->is_vector())
    return op(spv::Op::OpINotEqual, type(t), {v, splat(ir::with_scalar(t, ir::ScalarKind::U32), 0)});
  Words parts;
  for (std::uint32_t i = 0; i < member_count(t); ++i) {
    ir::TypeRef m = member_type(t, i);
    parts.push_back(to_logical(op(spv::Op::OpCompositeExtract, type(m, from), {v, i}), m, from));
  }
  return op(spv::Op::OpCompositeConstruct, type(t), {}, parts);
}

Id Emitter::to_memory(Id v, ir::TypeRef t, Layout to) {
  if (to == Layout::Logical || !contains_bool(t)) {
    if (to == Layout::Logical || t->is_scalar() || t->is_vector()) return v;
    return op(spv::Op::OpCopyLogical, type(t, to), {v});
  }
  if (t->is_scalar() || t->is_vector()) {
    ir::TypeRef word = ir::with_scalar(t, ir::ScalarKind::U32);
    return op(spv::Op::OpSelect, type(word), {v, splat(word, 1), splat(word, 0)});
  }
  Words parts;
  for (std::uint32_t i = 0; i < member_count(t); ++i) {
    ir::TypeRef m = member_type(t, i);
    parts.push_back(to_memory(op(spv::Op::OpCompositeExtract, type(m), {v, i}), m, to));
  }
  return op(spv::Op::OpCompositeConstruct, type(t, to), {}, parts);
}

}  // namespace sprig::compiler
