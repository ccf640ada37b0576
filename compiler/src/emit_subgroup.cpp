// Subgroup operations (OpGroupNonUniform*, execution scope Subgroup). Each declares the
// capability of its Vulkan subgroup feature class (vote, ballot, shuffle, relative
// shuffle, arithmetic) besides GroupNonUniform itself, so a module asks the device for
// exactly the features it uses.
#include "emitter.hpp"

namespace sprig::compiler {

namespace {

spv::GroupOperation group_operation(ir::GroupOperation g) {
  switch (g) {
    case ir::GroupOperation::InclusiveScan: return spv::GroupOperation::InclusiveScan;
    case ir::GroupOperation::ExclusiveScan: return spv::GroupOperation::ExclusiveScan;
    default: return spv::GroupOperation::Reduce;
  }
}

// The arithmetic instruction for `op` on values of type `t`.
spv::Op arithmetic(ir::SubgroupOp op, ir::TypeRef t) {
  bool f = t->is_float(), s = t->is_signed_int(), b = t->is_bool();
  using S = ir::SubgroupOp;
  switch (op) {
    case S::Add: return f ? spv::Op::OpGroupNonUniformFAdd : spv::Op::OpGroupNonUniformIAdd;
    case S::Mul: return f ? spv::Op::OpGroupNonUniformFMul : spv::Op::OpGroupNonUniformIMul;
    case S::Min: return f ? spv::Op::OpGroupNonUniformFMin : s ? spv::Op::OpGroupNonUniformSMin : spv::Op::OpGroupNonUniformUMin;
    case S::Max: return f ? spv::Op::OpGroupNonUniformFMax : s ? spv::Op::OpGroupNonUniformSMax : spv::Op::OpGroupNonUniformUMax;
    case S::And: return b ? spv::Op::OpGroupNonUniformLogicalAnd : spv::Op::OpGroupNonUniformBitwiseAnd;
    case S::Or: return b ? spv::Op::OpGroupNonUniformLogicalOr : spv::Op::OpGroupNonUniformBitwiseOr;
    case S::Xor: return b ? spv::Op::OpGroupNonUniformLogicalXor : spv::Op::OpGroupNonUniformBitwiseXor;
    default: return spv::Op::OpNop;
  }
}

spv::Capability capability(ir::SubgroupFeature feature) {
  switch (feature) {
    case ir::SubgroupFeature::Basic: break;
    case ir::SubgroupFeature::Vote: return spv::Capability::GroupNonUniformVote;
    case ir::SubgroupFeature::Ballot: return spv::Capability::GroupNonUniformBallot;
    case ir::SubgroupFeature::Shuffle: return spv::Capability::GroupNonUniformShuffle;
    case ir::SubgroupFeature::ShuffleRelative: return spv::Capability::GroupNonUniformShuffleRelative;
    case ir::SubgroupFeature::Arithmetic: return spv::Capability::GroupNonUniformArithmetic;
  }
  return spv::Capability::GroupNonUniform;
}

}  // namespace

Id Emitter::emit_subgroup(const ir::Node& n) {
  using S = ir::SubgroupOp;
  S sop = S(n.a);
  m_.capability(spv::Capability::GroupNonUniform);
  Id ty = type(n.type), sc = scope(ir::Scope::Subgroup);
  m_.capability(capability(ir::subgroup_feature(sop)));  // its row's feature class (subgroup_ops.def)
  auto operand = [&](std::size_t i) { return value(n.operands.at(i)); };
  switch (sop) {
    case S::Elect: return op(spv::Op::OpGroupNonUniformElect, ty, {sc});
    case S::All: return op(spv::Op::OpGroupNonUniformAll, ty, {sc, operand(0)});
    case S::Any: return op(spv::Op::OpGroupNonUniformAny, ty, {sc, operand(0)});
    case S::AllEqual: return op(spv::Op::OpGroupNonUniformAllEqual, ty, {sc, operand(0)});
    case S::Ballot: return op(spv::Op::OpGroupNonUniformBallot, ty, {sc, operand(0)});
    case S::BallotBitCount:
    case S::BallotInclusiveBitCount:
    case S::BallotExclusiveBitCount: {
      spv::GroupOperation g = sop == S::BallotBitCount            ? spv::GroupOperation::Reduce
                              : sop == S::BallotInclusiveBitCount ? spv::GroupOperation::InclusiveScan
                                                                  : spv::GroupOperation::ExclusiveScan;
      return op(spv::Op::OpGroupNonUniformBallotBitCount, ty, {sc, std::uint32_t(g), operand(0)});
    }
    case S::BallotFindLSB: return op(spv::Op::OpGroupNonUniformBallotFindLSB, ty, {sc, operand(0)});
    case S::BallotFindMSB: return op(spv::Op::OpGroupNonUniformBallotFindMSB, ty, {sc, operand(0)});
    case S::Broadcast: return op(spv::Op::OpGroupNonUniformBroadcast, ty, {sc, operand(0), operand(1)});
    case S::BroadcastFirst: return op(spv::Op::OpGroupNonUniformBroadcastFirst, ty, {sc, operand(0)});
    case S::Shuffle: return op(spv::Op::OpGroupNonUniformShuffle, ty, {sc, operand(0), operand(1)});
    case S::ShuffleXor: return op(spv::Op::OpGroupNonUniformShuffleXor, ty, {sc, operand(0), operand(1)});
    case S::ShuffleUp: return op(spv::Op::OpGroupNonUniformShuffleUp, ty, {sc, operand(0), operand(1)});
    case S::ShuffleDown: return op(spv::Op::OpGroupNonUniformShuffleDown, ty, {sc, operand(0), operand(1)});
    case S::Add:
    case S::Mul:
    case S::Min:
    case S::Max:
    case S::And:
    case S::Or:
    case S::Xor: {
      spv::GroupOperation g = group_operation(ir::GroupOperation(n.b));
      return op(arithmetic(sop, n.type), ty, {sc, std::uint32_t(g), operand(0)});
    }
  }
  fail("unknown subgroup operation", &n);
}

}  // namespace sprig::compiler
