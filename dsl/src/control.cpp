#include "sprig/dsl/control.hpp"

namespace sprig {

namespace detail {

ir::NodeRef begin_if(const Operand<bool>& cond, const SourceLoc& loc) {
  return ir::Builder::current(loc).statement(ir::Op::If, ir::void_type(), {cond.node}, loc);
}

ir::NodeRef begin_loop(const SourceLoc& loc) {
  return ir::Builder::current(loc).statement(ir::Op::Loop, ir::void_type(), {}, loc);
}

void set_loop_condition(ir::NodeRef loop, ir::NodeRef cond) { loop->operands = {cond}; }

void jump(ir::Op op, const SourceLoc& loc) { ir::Builder::current(loc).statement(op, ir::void_type(), {}, loc); }

}  // namespace detail

ir::Block* IfChain::else_block(const SourceLoc& loc) {
  ir::Block* block = node_->blocks.at(1);
  ir::Builder& b = ir::Builder::current(loc);
  if (!block->statements.empty())
    throw TraceError("this if_ already has an else branch", loc, b.kernel().name);
  if (b.block()->statements.empty() || b.block()->statements.back() != root_)
    throw TraceError("else_/else_if_ must directly follow its if_ (chain them in one statement)", loc,
                     b.kernel().name);
  return block;
}

void break_(std::source_location l) {
  ir::Builder& b = ir::Builder::current(l);
  if (!b.in_loop()) throw TraceError("break_() outside a device loop", l, b.kernel().name);
  detail::jump(ir::Op::Break, l);
}

void continue_(std::source_location l) {
  ir::Builder& b = ir::Builder::current(l);
  if (!b.in_loop()) throw TraceError("continue_() outside a device loop", l, b.kernel().name);
  detail::jump(ir::Op::Continue, l);
}

void return_(std::source_location l) {
  ir::Builder& b = ir::Builder::current(l);
  if (b.in_callable() && !b.function().result->is_void())
    throw TraceError("this callable returns a value: use return_(value)", l, b.kernel().name);
  detail::jump(ir::Op::Return, l);
}

}  // namespace sprig
