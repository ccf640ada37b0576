// Places: memory locations on the device (a local variable, a buffer element, a field or
// component of one). Reading a place loads it at that point of the program; assigning
// stores. The access parameter makes misuse a compile error: a read-only buffer's places
// cannot be assigned, a write-only buffer's places cannot be read.
//
// Var<T> is a mutable local variable: the way values change under device control flow.
#pragma once

#include <source_location>
#include <string>

#include "sprig/dsl/expr.hpp"

namespace sprig {

namespace detail {

void store(ir::NodeRef pointer, ir::NodeRef value, const SourceLoc& loc);
ir::NodeRef access(ir::NodeRef base, ir::TypeRef element, ir::NodeRef index, const SourceLoc& loc);
ir::NodeRef access_constant(ir::NodeRef base, ir::TypeRef element, std::uint32_t index, const SourceLoc& loc);

}  // namespace detail

// An array or buffer index: a UInt, an Int, a place holding one, or an integer literal.
struct Index {
  ir::NodeRef node;
  SourceLoc loc;
  Index(const Expr<std::uint32_t>& i, std::source_location l = std::source_location::current())  // NOLINT
      : node(i.node()), loc(l) {}
  Index(const Expr<std::int32_t>& i, std::source_location l = std::source_location::current())  // NOLINT
      : node(i.node()), loc(l) {}
  template <class T, Access A>
    requires(readable(A) && (std::same_as<T, std::uint32_t> || std::same_as<T, std::int32_t>))
  Index(const Place<T, A>& p, std::source_location l = std::source_location::current())  // NOLINT
      : node(detail::load(p.pointer(), l)), loc(l) {}
  template <class L>
    requires(std::integral<L> && !std::same_as<L, bool>)
  Index(L literal, std::source_location l = std::source_location::current())  // NOLINT
      : node(detail::splat_constant<std::uint32_t>(literal, l)), loc(l) {}
};

template <DeviceValue T, Access A>
class Place : public DeviceOps<T> {
 public:
  explicit Place(ir::NodeRef pointer) : pointer_(pointer) {}
  ir::NodeRef pointer() const { return pointer_; }

  // Loads the current value.
  Expr<T> load(std::source_location l = std::source_location::current()) const
    requires(readable(A))
  {
    return Expr<T>(detail::load(pointer_, l));
  }

  // Stores a value.
  const Place& operator=(const Operand<T>& value) const
    requires(writable(A))
  {
    detail::store(pointer_, value.node, value.loc);
    return *this;
  }
  // Copying one place to another stores a load of it (it never rebinds the place). An
  // assignment operator cannot take the caller's line, so the load and store carry the line
  // where this place was indexed (`a[i] = v` is one line, wherever `v` was declared), or,
  // when this place is a whole variable, the line where `other` was formed.
  const Place& operator=(const Place& other) const
    requires(writable(A) && readable(A))
  {
    const SourceLoc& loc = pointer_->op == ir::Op::VarRoot ? other.pointer()->loc : pointer_->loc;
    return *this = Operand<T>(other, loc);
  }
  Place(const Place&) = default;

// x op= v loads x, applies op (as the operator would, with its requirements) and stores.
#define SPRIG_COMPOUND_ASSIGNMENT(op, Kind)                                                       \
  const Place& operator op##=(const Operand<T>& value) const                                      \
    requires(writable(A) && readable(A) && requires(Expr<T> a) { a op a; })                        \
  {                                                                                               \
    ir::NodeRef current = detail::load(pointer_, value.loc);                                      \
    detail::store(pointer_, detail::pure(ir::Op::Kind, device_type<T>(), {current, value.node}, value.loc), value.loc); \
    return *this;                                                                                 \
  }
  SPRIG_COMPOUND_ASSIGNMENT(+, Add)
  SPRIG_COMPOUND_ASSIGNMENT(-, Sub)
  SPRIG_COMPOUND_ASSIGNMENT(*, Mul)
  SPRIG_COMPOUND_ASSIGNMENT(/, Div)
  SPRIG_COMPOUND_ASSIGNMENT(%, Rem)
  SPRIG_COMPOUND_ASSIGNMENT(&, BitAnd)
  SPRIG_COMPOUND_ASSIGNMENT(|, BitOr)
  SPRIG_COMPOUND_ASSIGNMENT(^, BitXor)
  SPRIG_COMPOUND_ASSIGNMENT(<<, Shl)
  SPRIG_COMPOUND_ASSIGNMENT(>>, Shr)
#undef SPRIG_COMPOUND_ASSIGNMENT

  // ---- vectors: components, constant or dynamic
  Place<component_t<T>, A> operator[](const Index& index) const
    requires VectorValue<T>
  {
    if (index.node->op == ir::Op::Constant) check_index(int(index.node->imm[0]), components_of<T>());
    return Place<component_t<T>, A>(detail::access(pointer_, device_type<component_t<T>>(), index.node, index.loc));
  }
  Place<component_t<T>, A> x() const requires VectorValue<T> { return sub<component_t<T>>(0); }
  Place<component_t<T>, A> y() const requires VectorValue<T> { return sub<component_t<T>>(1); }
  Place<component_t<T>, A> z() const requires(components_of<T>() >= 3) { return sub<component_t<T>>(2); }
  Place<component_t<T>, A> w() const requires(components_of<T>() >= 4) { return sub<component_t<T>>(3); }

  // ---- structs: fields by member pointer
  template <class M, class S>
    requires(ReflectedStruct<T> && std::same_as<S, T>)
  Place<M, A> operator[](M S::* member) const {
    return sub<M>(field_index(member));
  }

  // ---- arrays: constant or dynamic element index. A dynamic index out of range is reported
  // by the simulator; on a GPU it is undefined.
  auto operator[](const Index& index) const
    requires is_std_array<T>::value
  {
    using E = typename T::value_type;
    if (index.node->op == ir::Op::Constant) check_index(int(index.node->imm[0]), int(std::tuple_size_v<T>));
    return Place<E, A>(detail::access(pointer_, device_type<E>(), index.node, index.loc));
  }

 private:
  template <class E>
  Place<E, A> sub(std::uint32_t index) const {
    return Place<E, A>(detail::access_constant(pointer_, device_type<E>(), index, pointer_->loc));
  }
  void check_index(int index, int count) const {
    if (index < 0 || index >= count)
      throw TraceError("index " + std::to_string(index) + " out of range for " + ir::to_string(device_type<T>()),
                       pointer_->loc);
  }

  ir::NodeRef pointer_;
};

namespace detail {

// Declares a Function variable of type `type` with an optional initial value; returns its
// root pointer.
ir::NodeRef declare_variable(ir::TypeRef type, ir::NodeRef initial, const SourceLoc& loc);
void name_variable(ir::NodeRef root, std::string name);

}  // namespace detail

// A mutable device variable holding a T (a host type: std::uint32_t, vec4, a struct).
// Without an initial value it starts at zero. Written Var<T> (below).
template <class T>
class Variable : public Place<T, Access::ReadWrite> {
  using Base = Place<T, Access::ReadWrite>;

 public:
  explicit Variable(std::source_location l = std::source_location::current())
      : Base(detail::declare_variable(device_type<T>(), nullptr, l)) {}
  Variable(const Expr<T>& initial, std::source_location l = std::source_location::current())  // NOLINT
      : Base(detail::declare_variable(device_type<T>(), initial.node(), l)) {}
  template <class L>
    requires LiteralFor<L, T>
  Variable(L initial, std::source_location l = std::source_location::current())  // NOLINT
      : Base(detail::declare_variable(device_type<T>(), Operand<T>(initial, l).node, l)) {}
  template <Access A>
    requires(readable(A))
  Variable(const Place<T, A>& initial, std::source_location l = std::source_location::current())  // NOLINT
      : Base(detail::declare_variable(device_type<T>(), detail::load(initial.pointer(), l), l)) {}
  // A copy is a new variable holding the current value.
  Variable(const Variable& other, std::source_location l = std::source_location::current())
      : Base(detail::declare_variable(device_type<T>(), detail::load(other.pointer(), l), l)) {}

  using Base::operator=;
  const Variable& operator=(const Variable& other) const {
    Base::operator=(Operand<T>(other, other.pointer()->loc));
    return *this;
  }
  // Exact matches, so that assigning a value never picks the converting constructors.
  // `v = in[i]` (a place of another access) loads it on the line where it was indexed.
  template <Access A>
    requires(readable(A))
  const Variable& operator=(const Place<T, A>& value) const {
    Base::operator=(Operand<T>(value, value.pointer()->loc));
    return *this;
  }
  const Variable& operator=(const Expr<T>& value) const {
    detail::store(this->pointer(), value.node(), value.node()->loc);
    return *this;
  }
  template <class L>
    requires LiteralFor<L, T>
  const Variable& operator=(L literal) const {
    Base::operator=(Operand<T>(literal));
    return *this;
  }
  // Gives the variable a name in the SPIR-V debug info and the printed IR.
  const Variable& named(std::string name) const {
    detail::name_variable(this->pointer(), std::move(name));
    return *this;
  }
};

// Var<T> and Var<Expr<T>> name one type (Var<UInt> is Var<std::uint32_t>), so a helper
// written against either accepts both, and compiler errors spell it one way.
template <class U>
using Var = Variable<host_type_t<U>>;

}  // namespace sprig
