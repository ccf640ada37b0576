#include "sprig/dsl/control.hpp"

#include <algorithm>
#include <unordered_set>

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

void trace_body(ir::Builder& b, ir::Block* block, FunctionRef<void()> body, const char* what, const SourceLoc& loc) {
  if (b.trace_into(block, body) == 0)
    throw TraceError(std::string("the body of this ") + what +
                         " records nothing (a native `return` in a body lambda ends tracing early; use "
                         "return_() for a device return)",
                     loc, b.kernel().name);
}

IfChain trace_if(const Operand<bool>& cond, FunctionRef<void()> then, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  ir::NodeRef node = begin_if(cond, loc);
  trace_body(b, b.new_block(node), then, "if_", loc);
  b.new_block(node);  // else: filled by else_ / else_if_, empty otherwise
  return IfChain(node);
}

void trace_loop(FunctionRef<void()> body, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  ir::NodeRef loop = begin_loop(loc);
  b.new_block(loop);  // no header
  trace_body(b, b.new_block(loop), body, "loop_", loc);
  b.new_block(loop);  // nothing to continue with
}

}  // namespace detail

namespace {

// Nodes of `outer` traced after `after` that `root` depends on.
std::unordered_set<ir::NodeRef> trailing_dependencies(ir::NodeRef root, const ir::Block* outer, std::uint32_t after) {
  std::unordered_set<ir::NodeRef> found;
  std::vector<ir::NodeRef> work{root};
  while (!work.empty()) {
    ir::NodeRef n = work.back();
    work.pop_back();
    if (n->home != outer || n->id <= after || !found.insert(n).second) continue;
    for (ir::NodeRef o : n->operands) work.push_back(o);
  }
  return found;
}

}  // namespace

IfChain IfChain::trace_else_if(const Operand<bool>& cond, FunctionRef<void()> body, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  ir::NodeRef inner = nullptr;
  b.trace_into(else_block(loc, cond.node), [&] {
    inner = detail::begin_if(cond, loc);
    detail::trace_body(b, b.new_block(inner), body, "else_if_", loc);
    b.new_block(inner);  // its (so far empty) else
  });
  return IfChain(inner, root_);
}

void IfChain::trace_else(FunctionRef<void()> body, const SourceLoc& loc) {
  ir::Builder& b = ir::Builder::current(loc);
  detail::trace_body(b, else_block(loc, nullptr), body, "else_", loc);
}

ir::Block* IfChain::else_block(const SourceLoc& loc, ir::NodeRef condition) {
  ir::Block* block = node_->blocks.at(1);
  ir::Builder& b = ir::Builder::current(loc);
  if (!block->statements.empty())
    throw TraceError("this if_ already has an else branch", loc, b.kernel().name);
  ir::Block* outer = b.block();
  auto& statements = outer->statements;
  auto root = std::find(statements.begin(), statements.end(), root_);
  if (root == statements.end())
    throw TraceError("else_/else_if_ must directly follow its if_ (chain them in one statement)", loc, b.kernel().name);
  std::unordered_set<ir::NodeRef> moved;
  if (condition) moved = trailing_dependencies(condition, outer, root_->id);
  for (auto s = root + 1; s != statements.end(); ++s)
    if (!moved.count(*s))
      throw TraceError("else_/else_if_ must directly follow its if_ (chain them in one statement)", loc,
                       b.kernel().name);
  block->statements.assign(root + 1, statements.end());
  statements.erase(root + 1, statements.end());
  for (ir::NodeRef n : moved) n->home = block;
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
