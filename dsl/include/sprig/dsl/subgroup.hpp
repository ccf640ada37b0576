// Subgroup operations (SPIR-V GroupNonUniform*): they see exactly the invocations of the
// subgroup that are active at that point. The kernel records which it uses; the runtime
// checks that the device supports them.
//
//   UInt total = subgroup_add(x);                 // reduction over the active lanes
//   UInt before = subgroup_exclusive_add(x);      // prefix sums
//   UVec4 mask = subgroup_ballot(x > 0u);  UInt n = ballot_bit_count(mask);
//   UInt right = subgroup_shuffle_down(x, 1u);
#pragma once

#include <source_location>

#include "sprig/dsl/operand_type.hpp"

namespace sprig {

namespace detail {

ir::NodeRef subgroup(ir::SubgroupOp op, ir::GroupOperation group, ir::TypeRef type, std::vector<ir::NodeRef> operands,
                     const SourceLoc& loc);

template <class T>
concept SubgroupValue = ScalarOrVector<T>;

}  // namespace detail

// True in exactly one active lane (the lowest).
inline Expr<bool> subgroup_elect(std::source_location l = std::source_location::current()) {
  return Expr<bool>(detail::subgroup(ir::SubgroupOp::Elect, ir::GroupOperation::None, device_type<bool>(), {}, l));
}
inline Expr<bool> subgroup_all(const Operand<bool>& p) {
  return Expr<bool>(detail::subgroup(ir::SubgroupOp::All, ir::GroupOperation::None, device_type<bool>(), {p.node}, p.loc));
}
inline Expr<bool> subgroup_any(const Operand<bool>& p) {
  return Expr<bool>(detail::subgroup(ir::SubgroupOp::Any, ir::GroupOperation::None, device_type<bool>(), {p.node}, p.loc));
}
// Whether `x` is the same in every active lane.
template <class A, class T = deduced_type_t<A>>
  requires detail::SubgroupValue<T>
Expr<bool> subgroup_all_equal(const A& x, std::source_location l = std::source_location::current()) {
  return Expr<bool>(detail::subgroup(ir::SubgroupOp::AllEqual, ir::GroupOperation::None, device_type<bool>(),
                                     {Operand<T>(x, l).node}, l));
}

// Bit i of the result is set if lane i is active and `p` is true there.
inline Expr<uvec4> subgroup_ballot(const Operand<bool>& p) {
  return Expr<uvec4>(
      detail::subgroup(ir::SubgroupOp::Ballot, ir::GroupOperation::None, device_type<uvec4>(), {p.node}, p.loc));
}
#define SPRIG_BALLOT(name, Kind)                                                                          \
  inline Expr<std::uint32_t> name(const Operand<uvec4>& ballot) {                                         \
    return Expr<std::uint32_t>(detail::subgroup(ir::SubgroupOp::Kind, ir::GroupOperation::None,           \
                                                device_type<std::uint32_t>(), {ballot.node}, ballot.loc)); \
  }
// Set bits among the subgroup's lanes; inclusive/exclusive: of lanes up to this one.
SPRIG_BALLOT(ballot_bit_count, BallotBitCount)
SPRIG_BALLOT(ballot_inclusive_bit_count, BallotInclusiveBitCount)
SPRIG_BALLOT(ballot_exclusive_bit_count, BallotExclusiveBitCount)
SPRIG_BALLOT(ballot_find_lsb, BallotFindLSB)
SPRIG_BALLOT(ballot_find_msb, BallotFindMSB)
#undef SPRIG_BALLOT

// `x` of lane `lane` (which must be the same in every active lane, and active).
template <class A, class T = deduced_type_t<A>>
  requires detail::SubgroupValue<T>
Expr<T> subgroup_broadcast(const A& x, const Operand<std::uint32_t>& lane) {
  return Expr<T>(detail::subgroup(ir::SubgroupOp::Broadcast, ir::GroupOperation::None, device_type<T>(),
                                  {Operand<T>(x, lane.loc).node, lane.node}, lane.loc));
}
// `x` of the lowest active lane.
template <class A, class T = deduced_type_t<A>>
  requires detail::SubgroupValue<T>
Expr<T> subgroup_broadcast_first(const A& x, std::source_location l = std::source_location::current()) {
  return Expr<T>(detail::subgroup(ir::SubgroupOp::BroadcastFirst, ir::GroupOperation::None, device_type<T>(),
                                  {Operand<T>(x, l).node}, l));
}

#define SPRIG_SHUFFLE(name, Kind)                                                                        \
  template <class A, class T = deduced_type_t<A>>                                                        \
    requires detail::SubgroupValue<T>                                                                    \
  Expr<T> name(const A& x, const Operand<std::uint32_t>& lane) {                                         \
    return Expr<T>(detail::subgroup(ir::SubgroupOp::Kind, ir::GroupOperation::None, device_type<T>(),     \
                                    {Operand<T>(x, lane.loc).node, lane.node}, lane.loc));               \
  }
// `x` of lane `id` / of lane (self ^ mask) / of lane (self - delta) / of lane (self + delta).
// Reading an inactive or out-of-range lane gives an undefined value on a GPU (the
// simulator reports it and returns 0).
SPRIG_SHUFFLE(subgroup_shuffle, Shuffle)
SPRIG_SHUFFLE(subgroup_shuffle_xor, ShuffleXor)
SPRIG_SHUFFLE(subgroup_shuffle_up, ShuffleUp)
SPRIG_SHUFFLE(subgroup_shuffle_down, ShuffleDown)
#undef SPRIG_SHUFFLE

// Reductions and scans over the active lanes: subgroup_<op>, subgroup_inclusive_<op>,
// subgroup_exclusive_<op> (the exclusive scan of the first lane is the operation's
// identity). and/or/xor take integers.
#define SPRIG_GROUP_OP(suffix, Kind, Concept)                                                                 \
  template <class A, class T = deduced_type_t<A>>                                                             \
    requires Concept<T>                                                                                       \
  Expr<T> subgroup_##suffix(const A& x, std::source_location l = std::source_location::current()) {           \
    return Expr<T>(detail::subgroup(ir::SubgroupOp::Kind, ir::GroupOperation::Reduce, device_type<T>(),        \
                                    {Operand<T>(x, l).node}, l));                                             \
  }                                                                                                           \
  template <class A, class T = deduced_type_t<A>>                                                             \
    requires Concept<T>                                                                                       \
  Expr<T> subgroup_inclusive_##suffix(const A& x, std::source_location l = std::source_location::current()) { \
    return Expr<T>(detail::subgroup(ir::SubgroupOp::Kind, ir::GroupOperation::InclusiveScan, device_type<T>(), \
                                    {Operand<T>(x, l).node}, l));                                             \
  }                                                                                                           \
  template <class A, class T = deduced_type_t<A>>                                                             \
    requires Concept<T>                                                                                       \
  Expr<T> subgroup_exclusive_##suffix(const A& x, std::source_location l = std::source_location::current()) { \
    return Expr<T>(detail::subgroup(ir::SubgroupOp::Kind, ir::GroupOperation::ExclusiveScan, device_type<T>(), \
                                    {Operand<T>(x, l).node}, l));                                             \
  }
SPRIG_GROUP_OP(add, Add, Numeric)
SPRIG_GROUP_OP(mul, Mul, Numeric)
SPRIG_GROUP_OP(min, Min, Numeric)
SPRIG_GROUP_OP(max, Max, Numeric)
SPRIG_GROUP_OP(and, And, IntegerLike)
SPRIG_GROUP_OP(or, Or, IntegerLike)
SPRIG_GROUP_OP(xor, Xor, IntegerLike)
#undef SPRIG_GROUP_OP

}  // namespace sprig
