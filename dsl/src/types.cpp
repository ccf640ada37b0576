#include "sprig/dsl/types.hpp"

#include <deque>
#include <map>
#include <mutex>
#include <tuple>

namespace sprig::ir {

std::string_view scalar_name(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool: return "bool";
    case ScalarKind::I32: return "int";
    case ScalarKind::U32: return "uint";
    case ScalarKind::F32: return "float";
    case ScalarKind::I64: return "int64";
    case ScalarKind::U64: return "uint64";
  }
  return "?";
}

unsigned scalar_bits(ScalarKind k) {
  switch (k) {
    case ScalarKind::Bool: return 1;
    case ScalarKind::I64:
    case ScalarKind::U64: return 64;
    default: return 32;
  }
}

bool is_integer(ScalarKind k) {
  return k == ScalarKind::I32 || k == ScalarKind::U32 || k == ScalarKind::I64 || k == ScalarKind::U64;
}
bool is_signed(ScalarKind k) { return k == ScalarKind::I32 || k == ScalarKind::I64; }
bool is_float(ScalarKind k) { return k == ScalarKind::F32; }

bool Type::is_64bit() const {
  switch (kind) {
    case Kind::Scalar:
    case Kind::Vector: return scalar_bits(scalar) == 64;
    case Kind::Array: return element->is_64bit();
    case Kind::Struct:
      for (const Field& f : fields)
        if (f.type->is_64bit()) return true;
      return false;
    case Kind::Void: return false;
  }
  return false;
}

namespace {

// Types are interned in one table; the deque keeps their addresses stable.
struct TypeTable {
  std::mutex mutex;
  std::deque<Type> storage;
  std::map<std::tuple<int, int, std::uint32_t, TypeRef>, TypeRef> simple;
  std::map<std::pair<std::string, std::vector<std::pair<std::string, TypeRef>>>, TypeRef> structs;

  TypeRef intern_simple(Type t) {
    std::lock_guard lock(mutex);
    auto key = std::make_tuple(int(t.kind), int(t.scalar), t.count, t.element);
    auto it = simple.find(key);
    if (it != simple.end()) return it->second;
    storage.push_back(std::move(t));
    return simple[key] = &storage.back();
  }
};

TypeTable& table() {
  static TypeTable* t = new TypeTable;  // never destroyed: types outlive static destructors
  return *t;
}

}  // namespace

TypeRef void_type() { return table().intern_simple(Type{}); }

TypeRef scalar_type(ScalarKind k) {
  Type t;
  t.kind = Type::Kind::Scalar;
  t.scalar = k;
  return table().intern_simple(std::move(t));
}

TypeRef vector_type(ScalarKind k, std::uint32_t n) {
  Type t;
  t.kind = Type::Kind::Vector;
  t.scalar = k;
  t.count = n;
  t.element = scalar_type(k);
  return table().intern_simple(std::move(t));
}

TypeRef array_type(TypeRef element, std::uint32_t count) {
  Type t;
  t.kind = Type::Kind::Array;
  t.count = count;
  t.element = element;
  return table().intern_simple(std::move(t));
}

TypeRef struct_type(std::string name, std::vector<Field> fields) {
  TypeTable& tt = table();
  std::vector<std::pair<std::string, TypeRef>> key_fields;
  for (const Field& f : fields) key_fields.emplace_back(f.name, f.type);
  auto key = std::make_pair(name, key_fields);
  std::lock_guard lock(tt.mutex);
  auto it = tt.structs.find(key);
  if (it != tt.structs.end()) return it->second;
  Type t;
  t.kind = Type::Kind::Struct;
  t.name = std::move(name);
  t.fields = std::move(fields);
  t.count = std::uint32_t(t.fields.size());
  tt.storage.push_back(std::move(t));
  return tt.structs[key] = &tt.storage.back();
}

TypeRef component_type(TypeRef t) { return t->is_vector() ? t->element : t; }

TypeRef with_scalar(TypeRef shape, ScalarKind k) {
  return shape->is_vector() ? vector_type(k, shape->count) : scalar_type(k);
}

std::string to_string(TypeRef t) {
  switch (t->kind) {
    case Type::Kind::Void: return "void";
    case Type::Kind::Scalar: return std::string(scalar_name(t->scalar));
    case Type::Kind::Vector: return std::string(scalar_name(t->scalar)) + std::to_string(t->count);
    case Type::Kind::Array: return to_string(t->element) + "[" + std::to_string(t->count) + "]";
    case Type::Kind::Struct: return "struct " + t->name;
  }
  return "?";
}

}  // namespace sprig::ir
