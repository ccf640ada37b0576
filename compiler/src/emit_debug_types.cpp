// Source-level debug info: the kernel's types as NonSemantic.Shader.DebugInfo.100 declares
// them (DebugTypeBasic, DebugTypeVector, DebugTypeArray, DebugTypeComposite with its
// members), so that a debugger shows values as the user's vectors, arrays and structs.
// Sizes and member offsets are std430's, the layout in which the host sees a struct.
#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>

#include "emitter.hpp"

namespace sprig::compiler {

namespace {

std::uint32_t encoding_of(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::Bool: return NonSemanticShaderDebugInfo100Boolean;
    case ir::ScalarKind::F32: return NonSemanticShaderDebugInfo100Float;
    case ir::ScalarKind::I32:
    case ir::ScalarKind::I64: return NonSemanticShaderDebugInfo100Signed;
    case ir::ScalarKind::U32:
    case ir::ScalarKind::U64: return NonSemanticShaderDebugInfo100Unsigned;
  }
  return NonSemanticShaderDebugInfo100Unspecified;
}

}  // namespace

Id Emitter::debug_type(ir::TypeRef t) {
  if (t->is_void()) return void_type();
  if (auto it = sd_.types.find(t); it != sd_.types.end()) return it->second;
  Id id = 0;
  switch (t->kind) {
    case ir::Type::Kind::Void: break;
    case ir::Type::Kind::Scalar: {
      // A bool is 32 bits wherever it is stored.
      std::uint32_t bits = t->scalar == ir::ScalarKind::Bool ? 32 : ir::scalar_bits(t->scalar);
      id = debug_global(NonSemanticShaderDebugInfo100DebugTypeBasic,
                        {debug_string(std::string(ir::scalar_name(t->scalar))), u32(bits), u32(encoding_of(t->scalar)),
                         u32(NonSemanticShaderDebugInfo100None)});
      break;
    }
    case ir::Type::Kind::Vector:
      id = debug_global(NonSemanticShaderDebugInfo100DebugTypeVector,
                        {debug_type(ir::component_type(t)), u32(t->count)});
      break;
    case ir::Type::Kind::Array:
      id = debug_global(NonSemanticShaderDebugInfo100DebugTypeArray, {debug_type(t->element), u32(t->count)});
      break;
    case ir::Type::Kind::Struct: {
      ir::Layout layout = ir::layout_of(t, ir::LayoutRule::Std430);
      std::vector<DebugMember> members;
      for (std::size_t i = 0; i < t->fields.size(); ++i) {
        const ir::Field& f = t->fields[i];
        members.push_back({f.name, debug_type(f.type), layout.offsets[i],
                           ir::layout_of(f.type, ir::LayoutRule::Std430).size});
      }
      id = debug_composite(t->name, layout.size, members);
      break;
    }
  }
  sd_.types.emplace(t, id);
  return id;
}

// The IR knows no type's location: types are declared in the kernel's source at line 0.
Id Emitter::debug_composite(const std::string& type_name, std::uint32_t size_bytes,
                            const std::vector<DebugMember>& members) {
  Id source = sd_.unit_source, line = u32(0), column = u32(0);
  Words member_ids;
  for (const DebugMember& m : members) {
    member_ids.push_back(debug_global(NonSemanticShaderDebugInfo100DebugTypeMember,
                                      {debug_string(m.name), m.type, source, line, column,
                                       u32(m.offset_bytes * 8), u32(m.size_bytes * 8),
                                       u32(NonSemanticShaderDebugInfo100FlagIsPublic)}));
  }
  Id name_id = debug_string(type_name);
  return debug_global(NonSemanticShaderDebugInfo100DebugTypeComposite,
                      {name_id, u32(NonSemanticShaderDebugInfo100Structure), source, line, column,
                       sd_.compilation_unit, name_id, u32(size_bytes * 8),
                       u32(NonSemanticShaderDebugInfo100FlagIsPublic)},
                      member_ids);
}

}  // namespace sprig::compiler
