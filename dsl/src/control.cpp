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
