// Device values: Expr<T> is an immutable value of host type T on the device (a node of the
// traced DAG), and Operand<T> is what every DSL operation accepts — an Expr<T>, a readable
// place (loaded where it is used) or a C++ literal that takes T's type.
//
// Typing rules: operands of an operation have the same type; there is no implicit
// conversion between device types (use cast<T> / bitcast<T>). A literal adopts the other
// operand's type: integer literals for integer types (the value must fit), floating or
// integer literals for float, bool literals for bool. A vector operand also accepts a
// scalar of its component type, broadcast to every component.
//
// && and || on device bools are NOT short-circuit: both sides are always evaluated.
#pragma once

#include <concepts>
#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sprig/dsl/builder.hpp"
#include "sprig/dsl/type_of.hpp"

namespace sprig {

template <DeviceValue T>
class Expr;
template <DeviceValue T, ir::Access A>
class Place;

using ir::Access;
constexpr bool readable(Access a) { return (unsigned(a) & unsigned(Access::Read)) != 0; }
constexpr bool writable(Access a) { return (unsigned(a) & unsigned(Access::Write)) != 0; }

// The component type of a vector, or T itself.
template <class T>
struct component_of {
  using type = T;
};
template <class T, int N>
struct component_of<vec<T, N>> {
  using type = T;
};
template <class T>
using component_t = typename component_of<T>::type;

template <class T>
constexpr int components_of() {
  if constexpr (VectorValue<T>) return vector_traits<T>::size;
  else return 1;
}

// Same shape as T with components of type C (bool for comparisons, etc.).
template <class T, class C>
struct with_component {
  using type = C;
};
template <class T, int N, class C>
struct with_component<vec<T, N>, C> {
  using type = vec<C, N>;
};
template <class T, class C>
using with_component_t = typename with_component<T, C>::type;

template <class T>
concept Numeric = (ScalarValue<T> || VectorValue<T>) && !std::same_as<component_t<T>, bool>;
template <class T>
concept IntegerLike = Numeric<T> && std::integral<component_t<T>>;
template <class T>
concept FloatLike = (ScalarValue<T> || VectorValue<T>) && std::same_as<component_t<T>, float>;
template <class T>
concept BoolLike = (ScalarValue<T> || VectorValue<T>) && std::same_as<component_t<T>, bool>;
template <class T>
concept ScalarOrVector = ScalarValue<T> || VectorValue<T>;

// A C++ literal usable as an operand of type T (see the typing rules above).
template <class L, class T>
concept LiteralFor =
    ScalarOrVector<T> && !std::is_class_v<L> &&
    ((std::same_as<component_t<T>, bool> && std::same_as<L, bool>) ||
     (std::integral<component_t<T>> && !std::same_as<component_t<T>, bool> && std::integral<L> &&
      !std::same_as<L, bool>) ||
     (std::same_as<component_t<T>, float> && (std::floating_point<L> || (std::integral<L> && !std::same_as<L, bool>))));

namespace detail {

// Bit pattern of one scalar component as the IR stores it in Constant::imm.
template <ScalarValue T>
std::uint64_t constant_bits(T v) {
  if constexpr (std::same_as<T, float>) return std::bit_cast<std::uint32_t>(v);
  else if constexpr (std::same_as<T, bool>) return v ? 1 : 0;
  else return std::uint64_t(v);  // signed values are sign-extended
}

// A literal converted to the component type C, or a TraceError if it does not fit.
template <class C, class L>
C literal_value(L v, const SourceLoc& loc) {
  if constexpr (std::integral<C> && std::integral<L> && !std::same_as<C, bool>) {
    if (!std::in_range<C>(v))
      throw TraceError("literal " + std::to_string(v) + " does not fit the operand type " +
                           ir::to_string(device_type<C>()),
                       loc);
  }
  return C(v);
}

ir::NodeRef constant(ir::TypeRef type, std::vector<std::uint64_t> components, const SourceLoc& loc);

// A constant of type T whose every component is `value`.
template <class T, class L>
ir::NodeRef splat_constant(L value, const SourceLoc& loc) {
  using C = component_t<T>;
  std::uint64_t bits = constant_bits<C>(literal_value<C>(value, loc));
  return constant(device_type<T>(), std::vector<std::uint64_t>(components_of<T>(), bits), loc);
}

template <VectorValue V>
ir::NodeRef vector_constant(const V& v, const SourceLoc& loc) {
  using C = component_t<V>;
  std::vector<std::uint64_t> bits{constant_bits<C>(v.x), constant_bits<C>(v.y)};
  if constexpr (components_of<V>() >= 3) bits.push_back(constant_bits<C>(v.z));
  if constexpr (components_of<V>() >= 4) bits.push_back(constant_bits<C>(v.w));
  return constant(device_type<V>(), std::move(bits), loc);
}

ir::NodeRef splat(ir::TypeRef vector_type, ir::NodeRef scalar, const SourceLoc& loc);
ir::NodeRef load(ir::NodeRef pointer, const SourceLoc& loc);
ir::NodeRef pure(ir::Op op, ir::TypeRef type, std::vector<ir::NodeRef> operands, const SourceLoc& loc,
                 std::uint64_t a = 0);
void name_value(ir::NodeRef node, std::string name);

}  // namespace detail

template <DeviceValue T>
struct Operand {
  ir::NodeRef node;
  SourceLoc loc;

  Operand(const Expr<T>& e, SourceLoc l = std::source_location::current());  // NOLINT
  template <Access A>
    requires(readable(A))
  Operand(const Place<T, A>& p, SourceLoc l = std::source_location::current());  // NOLINT
  template <class L>
    requires LiteralFor<L, T>
  Operand(L literal, SourceLoc l = std::source_location::current())  // NOLINT
      : node(detail::splat_constant<T>(literal, l)), loc(l) {}
  // A scalar broadcast to a vector operand.
  Operand(const Expr<component_t<T>>& scalar, SourceLoc l = std::source_location::current())  // NOLINT
    requires VectorValue<T>;
};

}  // namespace sprig

#include "sprig/dsl/operators.hpp"
#include "sprig/dsl/vector_part.hpp"

namespace sprig {

template <DeviceValue T>
class Expr : public DeviceOps<T> {
 public:
  using value_type = T;

  // A literal scalar or vector, e.g. Float(1.5f) or Vec2(vec2{1, 2}).
  Expr(const T& value, std::source_location l = std::source_location::current())  // NOLINT
    requires ScalarOrVector<T>
      : node_(literal(value, l)) {}
  template <Access A>
    requires(readable(A))
  Expr(const Place<T, A>& p, std::source_location l = std::source_location::current())  // NOLINT
      : node_(detail::load(p.pointer(), l)) {}
  // A host literal of another type, checked as operands are: UInt(5) fits, UInt(-1) is a
  // TraceError naming the line. One of another kind does not compile (UInt x = 1.5f,
  // Bool b = 1): it would silently change the value.
  template <class L>
    requires(ScalarValue<T> && LiteralFor<L, T> && !std::same_as<L, T>)
  Expr(L literal, std::source_location l = std::source_location::current())  // NOLINT
      : node_(detail::splat_constant<T>(literal, l)) {}
  template <class L>
    requires(ScalarValue<T> && std::is_arithmetic_v<L> && !LiteralFor<L, T>)
  Expr(L literal, std::source_location l = std::source_location::current()) = delete;
  explicit Expr(ir::NodeRef node) : node_(node) {}

  // ---- vectors from scalars and shorter vectors, as GLSL constructs them: Vec4(x, y, z, w),
  // Vec4(xy, z, w), Vec4(xy, zw), Vec4(xyz, w), Vec3(xy, z), ..., and the splat Vec4(x).
  // Parts are device values, places or host constants; their sizes must add up.
  template <int K>
  using Part = detail::VectorPart<component_t<T>, K>;
  explicit Expr(Part<1> x) requires VectorValue<T>
      : node_(detail::construct_vector(device_type<T>(), std::vector<ir::NodeRef>(components_of<T>(), x.node), x.loc)) {}
  // A literal splat matches exactly, so UVec4(0u) never takes 0u for a null node pointer.
  template <class L>
    requires(VectorValue<T> && LiteralFor<L, T>)
  explicit Expr(L literal, std::source_location l = std::source_location::current())
      : node_(detail::splat_constant<T>(literal, l)) {}
  explicit Expr(Part<1> x, Part<1> y) requires(components_of<T>() == 2) : node_(vector_of({x, y})) {}
  explicit Expr(Part<1> x, Part<1> y, Part<1> z) requires(components_of<T>() == 3) : node_(vector_of({x, y, z})) {}
  explicit Expr(Part<2> xy, Part<1> z) requires(components_of<T>() == 3) : node_(vector_of({xy, z})) {}
  explicit Expr(Part<1> x, Part<2> yz) requires(components_of<T>() == 3) : node_(vector_of({x, yz})) {}
  explicit Expr(Part<1> x, Part<1> y, Part<1> z, Part<1> w) requires(components_of<T>() == 4) : node_(vector_of({x, y, z, w})) {}
  explicit Expr(Part<2> xy, Part<1> z, Part<1> w) requires(components_of<T>() == 4) : node_(vector_of({xy, z, w})) {}
  explicit Expr(Part<1> x, Part<2> yz, Part<1> w) requires(components_of<T>() == 4) : node_(vector_of({x, yz, w})) {}
  explicit Expr(Part<1> x, Part<1> y, Part<2> zw) requires(components_of<T>() == 4) : node_(vector_of({x, y, zw})) {}
  explicit Expr(Part<2> xy, Part<2> zw) requires(components_of<T>() == 4) : node_(vector_of({xy, zw})) {}
  explicit Expr(Part<3> xyz, Part<1> w) requires(components_of<T>() == 4) : node_(vector_of({xyz, w})) {}
  explicit Expr(Part<1> x, Part<3> yzw) requires(components_of<T>() == 4) : node_(vector_of({x, yzw})) {}

  ir::NodeRef node() const { return node_; }

  // Names the value for debuggers: OpName, and with source-level debug info a local
  // variable that shows the value where it is computed (docs/debugging.md). Names are not
  // part of the semantic hash. Equal expressions are one value, which takes the last name.
  const Expr& named(std::string name) const {
    detail::name_value(node_, std::move(name));
    return *this;
  }

  // ---- vectors: components and swizzles
  Expr<component_t<T>> operator[](int index) const
    requires VectorValue<T>
  {
    return component(index);
  }
  Expr<component_t<T>> operator[](const Expr<std::uint32_t>& index) const
    requires VectorValue<T>
  {
    return Expr<component_t<T>>(detail::pure(ir::Op::DynamicExtract, device_type<component_t<T>>(),
                                             {node_, index.node()}, index.node()->loc));
  }
  Expr<component_t<T>> x() const requires VectorValue<T> { return component(0); }
  Expr<component_t<T>> y() const requires VectorValue<T> { return component(1); }
  Expr<component_t<T>> z() const requires(components_of<T>() >= 3) { return component(2); }
  Expr<component_t<T>> w() const requires(components_of<T>() >= 4) { return component(3); }
  // Components by index, e.g. v.swizzle<2, 1, 0>() reverses a 3-vector.
  template <int... I>
  auto swizzle(std::source_location l = std::source_location::current()) const
    requires VectorValue<T>
  {
    static_assert(((I >= 0 && I < components_of<T>()) && ...), "swizzle index out of range");
    if constexpr (sizeof...(I) == 1) {
      return component((I, ...));
    } else {
      using R = vec<component_t<T>, int(sizeof...(I))>;
      ir::NodeRef n = ir::Builder::current(l).pure(ir::Op::Shuffle, device_type<R>(), {node_, node_}, l, 0, 0,
                                                    {std::uint64_t(I)...});
      return Expr<R>(n);
    }
  }
  auto xy() const requires VectorValue<T> { return swizzle<0, 1>(); }
  auto xyz() const requires(components_of<T>() >= 3) { return swizzle<0, 1, 2>(); }

  // ---- structs: fields by member pointer, e.g. particle[&Particle::mass]
  template <class M, class S>
    requires(ReflectedStruct<T> && std::same_as<S, T>)
  Expr<M> operator[](M S::* member) const {
    return Expr<M>(detail::pure(ir::Op::Extract, device_type<M>(), {node_}, node_->loc, field_index(member)));
  }

  // ---- arrays (values): constant indices only; dynamic indexing needs a Var<std::array>.
  auto operator[](std::uint32_t index) const
    requires is_std_array<T>::value
  {
    using E = typename T::value_type;
    if (index >= std::tuple_size_v<T>)
      throw TraceError("array index " + std::to_string(index) + " out of range", node_->loc);
    return Expr<E>(detail::pure(ir::Op::Extract, device_type<E>(), {node_}, node_->loc, index));
  }

  // Expr values are immutable DAG nodes; assigning rebinds this C++ name to another node
  // (trace-time metaprogramming). Device variables are Var<T>.
  Expr(const Expr&) = default;
  Expr& operator=(const Expr&) = default;

 private:
  // A part of any size, for the constructors' one helper.
  struct PartNode {
    ir::NodeRef node;
    SourceLoc loc;
    template <int K>
    PartNode(const Part<K>& p) : node(p.node), loc(p.loc) {}  // NOLINT
  };
  static ir::NodeRef vector_of(std::initializer_list<PartNode> parts) {
    std::vector<ir::NodeRef> nodes;
    for (const PartNode& p : parts) nodes.push_back(p.node);
    return detail::construct_vector(device_type<T>(), std::move(nodes), parts.begin()->loc);
  }
  static ir::NodeRef literal(const T& value, const SourceLoc& l) {
    if constexpr (VectorValue<T>) return detail::vector_constant(value, l);
    else return detail::splat_constant<T>(value, l);
  }
  Expr<component_t<T>> component(int index) const {
    if (index < 0 || index >= components_of<T>())
      throw TraceError("vector component " + std::to_string(index) + " out of range", node_->loc);
    return Expr<component_t<T>>(detail::pure(ir::Op::Extract, device_type<component_t<T>>(), {node_}, node_->loc,
                                             std::uint64_t(index)));
  }

  ir::NodeRef node_;
};

template <DeviceValue T>
Operand<T>::Operand(const Expr<T>& e, SourceLoc l) : node(e.node()), loc(l) {}

template <DeviceValue T>
template <Access A>
  requires(readable(A))
Operand<T>::Operand(const Place<T, A>& p, SourceLoc l) : node(detail::load(p.pointer(), l)), loc(l) {}

template <DeviceValue T>
Operand<T>::Operand(const Expr<component_t<T>>& scalar, SourceLoc l)
  requires VectorValue<T>
    : node(detail::splat(device_type<T>(), scalar.node(), l)), loc(l) {}

// Deduction guide so that `Expr e = 1.0f;` works.
template <ScalarValue T>
Expr(T) -> Expr<T>;

// Device-type aliases.
using Bool = Expr<bool>;
using Int = Expr<std::int32_t>;
using UInt = Expr<std::uint32_t>;
using Float = Expr<float>;
using Long = Expr<std::int64_t>;
using ULong = Expr<std::uint64_t>;
using Vec2 = Expr<vec2>;
using Vec3 = Expr<vec3>;
using Vec4 = Expr<vec4>;
using IVec2 = Expr<ivec2>;
using IVec3 = Expr<ivec3>;
using IVec4 = Expr<ivec4>;
using UVec2 = Expr<uvec2>;
using UVec3 = Expr<uvec3>;
using UVec4 = Expr<uvec4>;
using BVec2 = Expr<bvec2>;
using BVec3 = Expr<bvec3>;
using BVec4 = Expr<bvec4>;

// The host type behind Expr<T> (so Var<UInt> and Var<uint32_t> mean the same).
template <class T>
struct host_type {
  using type = T;
};
template <class T>
struct host_type<Expr<T>> {
  using type = T;
};
template <class T>
using host_type_t = typename host_type<T>::type;

}  // namespace sprig
