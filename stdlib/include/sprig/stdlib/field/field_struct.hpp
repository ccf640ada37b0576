// Between the field structs' device values (Expr<Canonical<P>>, Expr<Montgomery<P>>) and
// their words: the arithmetic works on words, values cross calls and buffers as structs.
#pragma once

#include "sprig/stdlib/field/host_element.hpp"
#include "sprig/stdlib/field/limb_chains.hpp"

namespace sprig::field::detail {

template <class S>
struct field_struct;
template <PrimeModulus P>
struct field_struct<Canonical<P>> {
  static constexpr std::size_t limbs = limb_count<P>;
};
template <PrimeModulus P>
struct field_struct<Montgomery<P>> {
  static constexpr std::size_t limbs = limb_count<P>;
};

template <class S>
using StructWords = Words<field_struct<S>::limbs>;

// The words of a field struct value. A value this code just built from words gives those
// words back instead of extracting them again, so chained operations stay free of
// construct/extract pairs.
template <class S>
StructWords<S> words_of(const Expr<S>& value) {
  constexpr std::size_t N = field_struct<S>::limbs;
  using Array = std::array<std::uint32_t, N>;
  ir::NodeRef node = value.node();
  const SourceLoc& loc = node->loc;
  ir::NodeRef array = nullptr;
  if (node->op == ir::Op::Construct && node->operands.size() == 1) array = node->operands[0];
  else array = sprig::detail::pure(ir::Op::Extract, device_type<Array>(), {node}, loc, 0);
  return [&]<std::size_t... J>(std::index_sequence<J...>) {
    if (array->op == ir::Op::Construct && array->operands.size() == N) return StructWords<S>{UInt(array->operands[J])...};
    return StructWords<S>{UInt(sprig::detail::pure(ir::Op::Extract, device_type<std::uint32_t>(), {array}, loc, J))...};
  }(std::make_index_sequence<N>{});
}

// The field struct value holding `words`.
template <class S>
Expr<S> struct_of(const StructWords<S>& words, const SourceLoc& loc) {
  constexpr std::size_t N = field_struct<S>::limbs;
  std::vector<ir::NodeRef> limbs;
  for (const UInt& w : words) limbs.push_back(w.node());
  ir::NodeRef array = sprig::detail::pure(ir::Op::Construct, device_type<std::array<std::uint32_t, N>>(), std::move(limbs), loc);
  return Expr<S>(sprig::detail::pure(ir::Op::Construct, device_type<S>(), {array}, loc));
}

// A field struct constant.
template <class S>
Expr<S> struct_constant(const Limbs<field_struct<S>::limbs>& limbs, const SourceLoc& loc) {
  return struct_of<S>(constant_words(limbs), loc);
}

}  // namespace sprig::field::detail
