// Structured control flow (SPIR-V spec 2.11): If -> OpSelectionMerge + OpBranchConditional;
// Loop -> a header block holding OpLoopMerge, a condition block (Loop::blocks[0] and the
// condition), the body (blocks[1]), the continue target (blocks[2]) branching back to the
// header, and the merge block after the loop. Break / Continue branch to the innermost
// loop's merge / continue target; Return ends the function from any depth.
//
// A block that nothing reaches (an If merge when both arms return, a loop merge when only
// a return leaves the loop) is still declared, as the merge instructions name it, and holds
// just OpUnreachable; the code after it in the IR block is dead and not emitted.
#include "emitter.hpp"

namespace sprig::compiler {

void Emitter::emit_if(const ir::Node& n) {
  const ir::Block& then_block = *n.blocks.at(0);
  const ir::Block* else_block = n.blocks.size() > 1 && !n.blocks[1]->statements.empty() ? n.blocks[1] : nullptr;
  Id cond = value(n.operands.at(0));
  Id then_label = m_.fresh_id(), merge = m_.fresh_id();
  Id else_label = else_block ? m_.fresh_id() : merge;
  op_void(spv::Op::OpSelectionMerge, {merge, std::uint32_t(spv::SelectionControlMask::MaskNone)});
  terminate(spv::Op::OpBranchConditional, {cond, then_label, else_label});

  label(then_label);
  emit_block(then_block);
  bool merge_reached = !else_block;
  if (f_.open) {
    terminate(spv::Op::OpBranch, {merge});
    merge_reached = true;
  }
  if (else_block) {
    label(else_label);
    emit_block(*else_block);
    if (f_.open) {
      terminate(spv::Op::OpBranch, {merge});
      merge_reached = true;
    }
  }
  label(merge);
  if (!merge_reached) terminate(spv::Op::OpUnreachable);
}

void Emitter::emit_loop(const ir::Node& n) {
  const ir::Block& header_block = *n.blocks.at(0);
  const ir::Block& body_block = *n.blocks.at(1);
  const ir::Block& continuing_block = *n.blocks.at(2);
  ir::NodeRef cond = n.operands.empty() ? nullptr : n.operands[0];
  bool has_condition_block = cond || !header_block.statements.empty();

  Id header = m_.fresh_id(), body = m_.fresh_id(), continue_target = m_.fresh_id(), merge = m_.fresh_id();
  Id condition_label = has_condition_block ? m_.fresh_id() : body;
  terminate(spv::Op::OpBranch, {header});
  label(header);
  op_void(spv::Op::OpLoopMerge, {merge, continue_target, std::uint32_t(spv::LoopControlMask::MaskNone)});
  terminate(spv::Op::OpBranch, {condition_label});

  f_.loops.push_back(LoopTargets{merge, continue_target, false, false});
  if (has_condition_block) {
    label(condition_label);
    emit_block(header_block);
    if (f_.open) {
      if (cond) {
        f_.pending = n.loc;
        terminate(spv::Op::OpBranchConditional, {value(cond), body, merge});
        f_.loops.back().merge_reached = true;
      } else {
        terminate(spv::Op::OpBranch, {body});
      }
    }
  }

  label(body);
  emit_block(body_block);
  if (f_.open) {
    terminate(spv::Op::OpBranch, {continue_target});
    f_.loops.back().continue_reached = true;
  }

  // An unreachable continue target (every path through the body breaks or returns) must
  // still branch back to the header, and holds nothing else.
  label(continue_target);
  if (f_.loops.back().continue_reached) emit_block(continuing_block);
  if (f_.open) terminate(spv::Op::OpBranch, {header});

  bool merge_reached = f_.loops.back().merge_reached;
  f_.loops.pop_back();
  label(merge);
  if (!merge_reached) terminate(spv::Op::OpUnreachable);
}

void Emitter::emit_break(const ir::Node& n) {
  if (f_.loops.empty()) fail("break outside a loop", &n);
  f_.loops.back().merge_reached = true;
  terminate(spv::Op::OpBranch, {f_.loops.back().merge});
}

void Emitter::emit_continue(const ir::Node& n) {
  if (f_.loops.empty()) fail("continue outside a loop", &n);
  f_.loops.back().continue_reached = true;
  terminate(spv::Op::OpBranch, {f_.loops.back().continue_target});
}

void Emitter::emit_return(const ir::Node& n) {
  if (n.operands.empty()) {
    if (!f_.is_entry && !f_.ir->result->is_void()) fail("a callable returning a value returns without one", &n);
    terminate(spv::Op::OpReturn);
  } else {
    terminate(spv::Op::OpReturnValue, {value(n.operands[0])});
  }
}

}  // namespace sprig::compiler
