#include "value_shape.hpp"

#include "scalar_value.hpp"

namespace sprig::sim {

std::uint32_t flat_count(ir::TypeRef t) {
  switch (t->kind) {
    case ir::Type::Kind::Void: return 0;
    case ir::Type::Kind::Scalar: return 1;
    case ir::Type::Kind::Vector: return t->count;
    case ir::Type::Kind::Array: return t->count * flat_count(t->element);
    case ir::Type::Kind::Struct: {
      std::uint32_t n = 0;
      for (const ir::Field& f : t->fields) n += flat_count(f.type);
      return n;
    }
  }
  return 0;
}

ComponentRange component_range(ir::TypeRef t, std::uint32_t index) {
  switch (t->kind) {
    case ir::Type::Kind::Vector: return {index, 1};
    case ir::Type::Kind::Array: {
      std::uint32_t n = flat_count(t->element);
      return {index * n, n};
    }
    case ir::Type::Kind::Struct: {
      std::uint32_t first = 0;
      for (std::uint32_t i = 0; i < index; ++i) first += flat_count(t->fields.at(i).type);
      return {first, flat_count(t->fields.at(index).type)};
    }
    default: return {0, flat_count(t)};
  }
}

namespace {

void collect_kinds(ir::TypeRef t, std::vector<ir::ScalarKind>& out) {
  switch (t->kind) {
    case ir::Type::Kind::Void: return;
    case ir::Type::Kind::Scalar: out.push_back(t->scalar); return;
    case ir::Type::Kind::Vector: out.insert(out.end(), t->count, t->scalar); return;
    case ir::Type::Kind::Array:
      for (std::uint32_t i = 0; i < t->count; ++i) collect_kinds(t->element, out);
      return;
    case ir::Type::Kind::Struct:
      for (const ir::Field& f : t->fields) collect_kinds(f.type, out);
      return;
  }
}

void collect_leaves(ir::TypeRef t, ir::LayoutRule rule, std::uint32_t base, std::vector<Leaf>& out) {
  switch (t->kind) {
    case ir::Type::Kind::Void: return;
    case ir::Type::Kind::Scalar: out.push_back({base, t->scalar}); return;
    case ir::Type::Kind::Vector:
      for (std::uint32_t i = 0; i < t->count; ++i) out.push_back({base + i * memory_bytes(t->scalar), t->scalar});
      return;
    case ir::Type::Kind::Array: {
      std::uint32_t stride = ir::layout_of(t, rule).stride;
      for (std::uint32_t i = 0; i < t->count; ++i) collect_leaves(t->element, rule, base + i * stride, out);
      return;
    }
    case ir::Type::Kind::Struct: {
      ir::Layout l = ir::layout_of(t, rule);
      for (std::size_t i = 0; i < t->fields.size(); ++i)
        collect_leaves(t->fields[i].type, rule, base + l.offsets[i], out);
      return;
    }
  }
}

}  // namespace

std::vector<ir::ScalarKind> flat_kinds(ir::TypeRef t) {
  std::vector<ir::ScalarKind> out;
  collect_kinds(t, out);
  return out;
}

MemoryShape memory_shape(ir::TypeRef t, ir::LayoutRule rule) {
  MemoryShape s;
  s.size = ir::layout_of(t, rule).size;
  collect_leaves(t, rule, 0, s.leaves);
  return s;
}

}  // namespace sprig::sim
