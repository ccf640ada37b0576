// Types: one SPIR-V type per (IR type, layout). Scalars and vectors carry no decorations,
// so every layout shares them (except bools, which are uint32 in memory); structs and
// arrays are declared once per layout with their Offset / ArrayStride decorations, so a
// struct held in a Function variable never inherits a buffer's explicit layout.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

ir::LayoutRule rule_of(Layout layout) { return layout == Layout::Std140 ? ir::LayoutRule::Std140 : ir::LayoutRule::Std430; }

}  // namespace

Id Emitter::void_type() { return m_.type(spv::Op::OpTypeVoid, {}); }
Id Emitter::bool_type() { return m_.type(spv::Op::OpTypeBool, {}); }

Id Emitter::uint_type(unsigned bits) {
  if (bits == 64) m_.capability(spv::Capability::Int64);
  return m_.type(spv::Op::OpTypeInt, {bits, 0});
}

Id Emitter::pointer_type(spv::StorageClass storage, Id pointee) {
  return m_.type(spv::Op::OpTypePointer, {std::uint32_t(storage), pointee});
}

Id Emitter::function_type(Id result, std::span<const Id> params) {
  return m_.type(spv::Op::OpTypeFunction, {result}, params);
}

Id Emitter::type(ir::TypeRef t, Layout layout) {
  switch (t->kind) {
    case ir::Type::Kind::Void: return void_type();
    case ir::Type::Kind::Scalar:
    case ir::Type::Kind::Vector: {
      Id component = 0;
      switch (t->scalar) {
        case ir::ScalarKind::Bool: component = layout == Layout::Logical ? bool_type() : uint_type(32); break;
        case ir::ScalarKind::F32: component = m_.type(spv::Op::OpTypeFloat, {32}); break;
        default: {
          unsigned bits = ir::scalar_bits(t->scalar);
          if (bits == 64) m_.capability(spv::Capability::Int64);
          component = m_.type(spv::Op::OpTypeInt, {bits, ir::is_signed(t->scalar) ? 1u : 0u});
        }
      }
      return t->is_vector() ? m_.type(spv::Op::OpTypeVector, {component, t->count}) : component;
    }
    case ir::Type::Kind::Struct:
    case ir::Type::Kind::Array: {
      auto key = std::make_pair(t, layout);
      if (auto it = types_.find(key); it != types_.end()) return it->second;
      Id id = t->is_struct() ? struct_type(t, layout) : array_type(t, layout);
      types_.emplace(key, id);
      return id;
    }
  }
  fail("unknown type kind");
}

Id Emitter::struct_type(ir::TypeRef t, Layout layout) {
  Words members;
  for (const ir::Field& f : t->fields) members.push_back(type(f.type, layout));
  Id id = m_.distinct_type(spv::Op::OpTypeStruct, members);
  name_struct(id, t);
  if (layout != Layout::Logical) {
    ir::Layout l = ir::layout_of(t, rule_of(layout));
    for (std::uint32_t i = 0; i < t->fields.size(); ++i)
      m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpMemberDecorate,
             {id, i, std::uint32_t(spv::Decoration::Offset), l.offsets[i]});
  }
  return id;
}

Id Emitter::array_type(ir::TypeRef t, Layout layout) {
  Id element = type(t->element, layout);
  Id length = u32(t->count);
  Id id = m_.distinct_type(spv::Op::OpTypeArray, Words{element, length});
  if (layout != Layout::Logical) {
    ir::Layout l = ir::layout_of(t, rule_of(layout));
    m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate, {id, std::uint32_t(spv::Decoration::ArrayStride), l.stride});
  }
  return id;
}

// The runtime array of a storage buffer's elements, laid out std430.
Id Emitter::runtime_array_type(ir::TypeRef element) {
  if (auto it = runtime_arrays_.find(element); it != runtime_arrays_.end()) return it->second;
  Id id = m_.distinct_type(spv::Op::OpTypeRuntimeArray, Words{type(element, Layout::Std430)});
  m_.add(ModuleBuilder::Section::Annotations, spv::Op::OpDecorate,
         {id, std::uint32_t(spv::Decoration::ArrayStride), ir::array_stride(element, ir::LayoutRule::Std430)});
  runtime_arrays_.emplace(element, id);
  return id;
}

}  // namespace sprig::compiler
