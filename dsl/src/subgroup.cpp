#include "sprig/dsl/subgroup.hpp"

namespace sprig::detail {

namespace {

void require_feature(ir::Features& f, ir::SubgroupOp op) {
  f.subgroup_basic = true;
  switch (ir::subgroup_feature(op)) {
    case ir::SubgroupFeature::Basic: break;
    case ir::SubgroupFeature::Vote: f.subgroup_vote = true; break;
    case ir::SubgroupFeature::Ballot: f.subgroup_ballot = true; break;
    case ir::SubgroupFeature::Shuffle: f.subgroup_shuffle = true; break;
    case ir::SubgroupFeature::ShuffleRelative: f.subgroup_shuffle_relative = true; break;
    case ir::SubgroupFeature::Arithmetic: f.subgroup_arithmetic = true; break;
  }
}

}  // namespace

ir::NodeRef subgroup(ir::SubgroupOp op, ir::GroupOperation group, ir::TypeRef type, std::vector<ir::NodeRef> operands,
                     const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  require_feature(b.kernel().features, op);
  // A statement, not a pure node: its value depends on which lanes are active here.
  return b.statement(ir::Op::Subgroup, type, std::move(operands), loc, std::uint64_t(op), std::uint64_t(group));
}

}  // namespace sprig::detail
