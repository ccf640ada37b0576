#include "sprig/dsl/subgroup.hpp"

namespace sprig::detail {

namespace {

void require_feature(ir::Features& f, ir::SubgroupOp op, ir::GroupOperation group) {
  f.subgroup_basic = true;
  using S = ir::SubgroupOp;
  if (group != ir::GroupOperation::None) {
    f.subgroup_arithmetic = true;
    return;
  }
  switch (op) {
    case S::All:
    case S::Any:
    case S::AllEqual: f.subgroup_vote = true; break;
    case S::Ballot:
    case S::BallotBitCount:
    case S::BallotInclusiveBitCount:
    case S::BallotExclusiveBitCount:
    case S::BallotFindLSB:
    case S::BallotFindMSB:
    case S::Broadcast:
    case S::BroadcastFirst: f.subgroup_ballot = true; break;
    case S::Shuffle:
    case S::ShuffleXor: f.subgroup_shuffle = true; break;
    case S::ShuffleUp:
    case S::ShuffleDown: f.subgroup_shuffle_relative = true; break;
    default: break;
  }
}

}  // namespace

ir::NodeRef subgroup(ir::SubgroupOp op, ir::GroupOperation group, ir::TypeRef type, std::vector<ir::NodeRef> operands,
                     const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  require_feature(b.kernel().features, op, group);
  // A statement, not a pure node: its value depends on which lanes are active here.
  return b.statement(ir::Op::Subgroup, type, std::move(operands), loc, std::uint64_t(op), std::uint64_t(group));
}

}  // namespace sprig::detail
