// One argument of a vector constructor (Vec4(a, b, c, d), Vec4(xy, z, w), Vec3(xy, z), ...):
// a device scalar or a vector of K components with component type C, a place holding one,
// or a host constant (a literal for K == 1, a host vec<C, K> otherwise). K is part of the
// type so that the constructors that exist are exactly those whose parts add up to the
// vector's size: a wrong count does not compile. Included by expr.hpp only.
#pragma once

namespace sprig::detail {

template <class C, int K>
using vector_part_value = std::conditional_t<K == 1, C, vec<C, K>>;

template <class C, int K>
struct VectorPart {
  using V = vector_part_value<C, K>;
  ir::NodeRef node;
  SourceLoc loc;

  VectorPart(const Expr<V>& e, std::source_location l = std::source_location::current())  // NOLINT
      : node(e.node()), loc(l) {}
  template <Access A>
    requires(readable(A))
  VectorPart(const Place<V, A>& p, std::source_location l = std::source_location::current())  // NOLINT
      : node(load(p.pointer(), l)), loc(l) {}
  template <class L>
    requires(K == 1 && LiteralFor<L, C>)
  VectorPart(L literal, std::source_location l = std::source_location::current())  // NOLINT
      : node(splat_constant<C>(literal, l)), loc(l) {}
  VectorPart(const V& host, std::source_location l = std::source_location::current())  // NOLINT
    requires(K > 1)
      : node(vector_constant(host, l)), loc(l) {}
};

// The vector of `type` made of `parts` (scalars and vectors, in order). Parts that are all
// constants fold into one constant, since SPIR-V constant vectors list scalars only.
ir::NodeRef construct_vector(ir::TypeRef type, std::vector<ir::NodeRef> parts, const SourceLoc& loc);

}  // namespace sprig::detail
