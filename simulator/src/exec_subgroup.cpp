// Subgroup operations (GroupNonUniform*) over exactly the lanes active at that point.
// Reading a lane that is inactive or does not exist is undefined on a GPU: the simulator
// gives 0 and records a warning at the line (an error only once such a value is used,
// which later analyses can tell).
#include <algorithm>
#include <limits>

#include "launch_state.hpp"
#include "program_builder.hpp"
#include "sprig/dsl/semantics.hpp"

namespace sprig::sim {

namespace {

using S = ir::SubgroupOp;

void write_active(Context& c, std::uint32_t slot, Word value) {
  Word* d = c.reg(slot);
  for_each_lane(c.active, [&](std::uint32_t l) { d[l] = value; });
}

Mask true_lanes(Context& c, std::uint32_t slot) {
  const Word* v = c.reg(slot);
  Mask m = 0;
  for_each_lane(c.active, [&](std::uint32_t l) { m |= Mask(v[l] & 1) << l; });
  return m;
}

void elect(Context& c, const Instr& in) {
  Word* d = c.reg(in.dst);
  const std::uint32_t first = lowest_lane(c.active);
  for_each_lane(c.active, [&](std::uint32_t l) { d[l] = l == first; });
}

void vote_all(Context& c, const Instr& in) { write_active(c, in.dst, true_lanes(c, in.src[0]) == c.active); }
void vote_any(Context& c, const Instr& in) { write_active(c, in.dst, true_lanes(c, in.src[0]) != 0); }

void all_equal(Context& c, const Instr& in) {
  const std::uint32_t first = lowest_lane(c.active);
  bool equal = true;
  for (std::uint32_t k = 0; k < in.aux; ++k) {
    const Word* v = c.reg(in.src[0] + k);
    for_each_lane(c.active, [&](std::uint32_t l) { equal = equal && v[l] == v[first]; });
  }
  write_active(c, in.dst, equal);
}

void ballot(Context& c, const Instr& in) {
  const Mask m = true_lanes(c, in.src[0]);
  write_active(c, in.dst + 0, m & 0xffffffffu);
  write_active(c, in.dst + 1, m >> 32);
  write_active(c, in.dst + 2, 0);
  write_active(c, in.dst + 3, 0);
}

// Ballot queries read each lane's own ballot value; bits beyond the subgroup are ignored.
template <S op>
void ballot_query(Context& c, const Instr& in) {
  const Word* x = c.reg(in.src[0]);
  const Word* y = c.reg(in.src[0] + 1);
  Word* d = c.reg(in.dst);
  const Mask valid = first_lanes(c.width);
  for_each_lane(c.active, [&](std::uint32_t l) {
    Mask m = ((y[l] & 0xffffffffu) << 32 | (x[l] & 0xffffffffu)) & valid;
    switch (op) {
      case S::BallotBitCount: d[l] = lane_count(m); break;
      case S::BallotInclusiveBitCount: d[l] = lane_count(m & first_lanes(l + 1)); break;
      case S::BallotExclusiveBitCount: d[l] = lane_count(m & first_lanes(l)); break;
      case S::BallotFindLSB: d[l] = m ? lowest_lane(m) : 0xffffffffu; break;
      default: d[l] = m ? highest_lane(m) : 0xffffffffu; break;
    }
  });
}

[[gnu::cold]] void inactive_source(Context& c, const Instr& in, std::uint32_t lane, std::int64_t source) {
  report_problem(
      c, Problem::InactiveLane, in.node, lane,
      [&] {
        return "a subgroup operation reads lane " + std::to_string(source) + ", which is " +
               (source < 0 || source >= std::int64_t(c.width) ? "outside the subgroup" : "inactive") +
               " (the value is undefined on a GPU; the simulator gives 0)";
      },
      false);
}

// Each lane takes `x` (aux components) from the lane `source(lane)` names.
template <S op>
void gather(Context& c, const Instr& in) {
  const Word* arg = c.reg(in.src[1]);
  const std::uint32_t first = lowest_lane(c.active);
  Word values[4][64];
  for (std::uint32_t k = 0; k < in.aux; ++k) std::copy_n(c.reg(in.src[0] + k), c.width, values[k]);
  for_each_lane(c.active, [&](std::uint32_t l) {
    std::int64_t source;
    const std::int64_t a = std::int64_t(get<std::uint32_t>(arg[l]));
    switch (op) {
      case S::BroadcastFirst: source = first; break;
      case S::ShuffleXor: source = std::int64_t(l) ^ a; break;
      case S::ShuffleUp: source = std::int64_t(l) - a; break;
      case S::ShuffleDown: source = std::int64_t(l) + a; break;
      default: source = a; break;  // Broadcast, Shuffle
    }
    const bool ok = source >= 0 && source < std::int64_t(c.width) && (c.active >> source & 1);
    if (!ok) [[unlikely]]
      inactive_source(c, in, l, source);
    for (std::uint32_t k = 0; k < in.aux; ++k) c.reg(in.dst + k)[l] = ok ? values[k][source] : 0;
  });
}

// ---- reductions and scans, in lane order
template <class T>
T identity(S op) {
  switch (op) {
    case S::Mul: return T(1);
    case S::Min:
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    case S::Max:
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::lowest();
    case S::And: return T(~std::uint64_t(0));
    default: return T(0);
  }
}

template <class T>
T fold(S op, T a, T b) {
  constexpr bool integer = semantics::Integer<T>;
  switch (op) {
    case S::Add:
      if constexpr (integer) return semantics::add(a, b); else return a + b;
    case S::Mul:
      if constexpr (integer) return semantics::mul(a, b); else return a * b;
    case S::Min: return semantics::min(a, b);
    case S::Max: return semantics::max(a, b);
    case S::And:
      if constexpr (integer) return T(a & b); else return a;
    case S::Or:
      if constexpr (integer) return T(a | b); else return a;
    case S::Xor:
      if constexpr (integer) return T(a ^ b); else return a;
    default: return a;
  }
}

// aux = components; imm = GroupOperation; count = SubgroupOp.
template <class T>
void group_fold(Context& c, const Instr& in) {
  const S op = S(in.count);
  const auto group = ir::GroupOperation(in.imm);
  for (std::uint32_t k = 0; k < in.aux; ++k) {
    const Word* x = c.reg(in.src[0] + k);
    Word* d = c.reg(in.dst + k);
    T acc = identity<T>(op);
    if (group == ir::GroupOperation::Reduce) {
      for_each_lane(c.active, [&](std::uint32_t l) { acc = fold(op, acc, get<T>(x[l])); });
      for_each_lane(c.active, [&](std::uint32_t l) { d[l] = put(acc); });
    } else {
      const bool inclusive = group == ir::GroupOperation::InclusiveScan;
      for_each_lane(c.active, [&](std::uint32_t l) {
        T next = fold(op, acc, get<T>(x[l]));
        d[l] = put(inclusive ? next : acc);
        acc = next;
      });
    }
  }
}

Handler group_fold_for(ir::ScalarKind k) {
  return with_scalar_type(k, []<class T>() -> Handler {
    if constexpr (std::is_same_v<T, bool>) return nullptr;
    else return &group_fold<T>;
  });
}

}  // namespace

void lower_subgroup(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  const S op = S(n.a);
  const auto group = ir::GroupOperation(n.b);
  ir::TypeRef value = n.operands.empty() ? nullptr : n.operands[0]->type;
  in.aux = value ? flat_count(value) : 0;
  if (in.aux > 4) b.unsupported(n, "subgroup operations on " + ir::to_string(value));
  if (n.operands.size() < 2) in.src[1] = n.operands.empty() ? 0 : in.src[0];
  if (group != ir::GroupOperation::None) {
    if (!value->is_scalar() && !value->is_vector()) b.unsupported(n, "group operations on " + ir::to_string(value));
    bool bitwise = op == S::And || op == S::Or || op == S::Xor;
    if (bitwise && !value->is_int()) b.unsupported(n, "bitwise group operations on " + ir::to_string(value));
    in.run = group_fold_for(value->scalar);
    in.count = std::uint32_t(op);
    in.imm = std::uint64_t(group);
    if (!in.run) b.unsupported(n, "group operations on " + ir::to_string(value));
    return;
  }
  switch (op) {
    case S::Elect: in.run = elect; break;
    case S::All: in.run = vote_all; break;
    case S::Any: in.run = vote_any; break;
    case S::AllEqual: in.run = all_equal; break;
    case S::Ballot: in.run = ballot; break;
    case S::BallotBitCount: in.run = ballot_query<S::BallotBitCount>; break;
    case S::BallotInclusiveBitCount: in.run = ballot_query<S::BallotInclusiveBitCount>; break;
    case S::BallotExclusiveBitCount: in.run = ballot_query<S::BallotExclusiveBitCount>; break;
    case S::BallotFindLSB: in.run = ballot_query<S::BallotFindLSB>; break;
    case S::BallotFindMSB: in.run = ballot_query<S::BallotFindMSB>; break;
    case S::Broadcast: in.run = gather<S::Broadcast>; break;
    case S::BroadcastFirst: in.run = gather<S::BroadcastFirst>; break;
    case S::Shuffle: in.run = gather<S::Shuffle>; break;
    case S::ShuffleXor: in.run = gather<S::ShuffleXor>; break;
    case S::ShuffleUp: in.run = gather<S::ShuffleUp>; break;
    case S::ShuffleDown: in.run = gather<S::ShuffleDown>; break;
    case S::Add:
    case S::Mul:
    case S::Min:
    case S::Max:
    case S::And:
    case S::Or:
    case S::Xor: b.unsupported(n, "subgroup " + std::string(ir::subgroup_op_name(op)) + " without a group operation");
  }
}

}  // namespace sprig::sim
