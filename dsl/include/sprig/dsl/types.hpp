// Device types as the IR sees them: scalars, vectors, structs and fixed-size arrays.
// Types are interned, so two equal types are the same pointer and compare with ==.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sprig::ir {

enum class ScalarKind : std::uint8_t { Bool, I32, U32, F32, I64, U64 };

std::string_view scalar_name(ScalarKind k);
unsigned scalar_bits(ScalarKind k);  // 1 for bool (stored as 32 bits in memory)
bool is_integer(ScalarKind k);
bool is_signed(ScalarKind k);
bool is_float(ScalarKind k);

struct Type;
using TypeRef = const Type*;

struct Field {
  std::string name;
  TypeRef type;
};

struct Type {
  enum class Kind : std::uint8_t { Void, Scalar, Vector, Struct, Array };
  Kind kind = Kind::Void;
  ScalarKind scalar = ScalarKind::Bool;  // Scalar and Vector: the component kind
  std::uint32_t count = 0;               // Vector: 2..4 components; Array: element count
  TypeRef element = nullptr;             // Array: element type (Vector: the scalar type)
  std::string name;                      // Struct: the C++ name, for debug info only
  std::vector<Field> fields;             // Struct

  bool is_void() const { return kind == Kind::Void; }
  bool is_scalar() const { return kind == Kind::Scalar; }
  bool is_vector() const { return kind == Kind::Vector; }
  bool is_struct() const { return kind == Kind::Struct; }
  bool is_array() const { return kind == Kind::Array; }
  bool is_bool() const { return (is_scalar() || is_vector()) && scalar == ScalarKind::Bool; }
  bool is_int() const { return (is_scalar() || is_vector()) && is_integer(scalar); }
  bool is_float() const { return (is_scalar() || is_vector()) && ir::is_float(scalar); }
  bool is_signed_int() const { return (is_scalar() || is_vector()) && is_signed(scalar); }
  bool is_64bit() const;  // any 64-bit scalar anywhere inside
  // Scalars and vectors: component count (1 for a scalar).
  std::uint32_t components() const { return is_vector() ? count : 1; }
};

// Interning constructors. Thread-safe; the returned pointers live for the program's lifetime.
TypeRef void_type();
TypeRef scalar_type(ScalarKind k);
TypeRef vector_type(ScalarKind k, std::uint32_t n);
TypeRef array_type(TypeRef element, std::uint32_t count);
// Struct identity is structural plus the name: equal layouts with different C++ names differ.
TypeRef struct_type(std::string name, std::vector<Field> fields);
// Scalar type of a vector's component, or the type itself for a scalar.
TypeRef component_type(TypeRef t);
// Same shape as `shape` (scalar or n-vector) with another component kind.
TypeRef with_scalar(TypeRef shape, ScalarKind k);

std::string to_string(TypeRef t);

}  // namespace sprig::ir
