#include "sprig/dsl/layout.hpp"

#include <algorithm>

namespace sprig::ir {

namespace {

std::uint32_t round_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

std::uint32_t scalar_bytes(ScalarKind k) { return scalar_bits(k) == 64 ? 8 : 4; }

}  // namespace

// The rules are those of the Vulkan spec, "Offset and Stride Assignment": std430 gives
// arrays and structs their members' alignment; std140 additionally rounds array strides
// and struct alignments up to 16 bytes.
Layout layout_of(TypeRef t, LayoutRule rule) {
  Layout l;
  switch (t->kind) {
    case Type::Kind::Void: return l;
    case Type::Kind::Scalar:
      l.size = l.alignment = scalar_bytes(t->scalar);
      return l;
    case Type::Kind::Vector: {
      std::uint32_t c = scalar_bytes(t->scalar);
      l.size = c * t->count;
      l.alignment = c * (t->count == 3 ? 4 : t->count);
      return l;
    }
    case Type::Kind::Array: {
      Layout e = layout_of(t->element, rule);
      l.alignment = e.alignment;
      if (rule == LayoutRule::Std140) l.alignment = round_up(l.alignment, 16);
      l.stride = round_up(e.size, std::max(e.alignment, l.alignment));
      l.size = l.stride * t->count;
      return l;
    }
    case Type::Kind::Struct: {
      std::uint32_t offset = 0;
      l.alignment = 1;
      for (const Field& f : t->fields) {
        Layout fl = layout_of(f.type, rule);
        offset = round_up(offset, fl.alignment);
        l.offsets.push_back(offset);
        offset += fl.size;
        // std140 and std430: a member following a struct or array starts at the next
        // multiple of that member's alignment.
        if (f.type->is_struct() || f.type->is_array()) offset = round_up(offset, fl.alignment);
        l.alignment = std::max(l.alignment, fl.alignment);
      }
      if (rule == LayoutRule::Std140) l.alignment = round_up(l.alignment, 16);
      l.size = round_up(offset, l.alignment);
      return l;
    }
  }
  return l;
}

std::uint32_t array_stride(TypeRef t, LayoutRule rule) {
  Layout l = layout_of(t, rule);
  return round_up(l.size, l.alignment);
}

}  // namespace sprig::ir
