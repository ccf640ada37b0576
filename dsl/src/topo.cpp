#include "sprig/dsl/topo.hpp"

#include <unordered_set>

namespace sprig::ir {

namespace {

class Scheduler {
 public:
  explicit Scheduler(const Block& block) : block_(block) {}

  std::vector<NodeRef> run() {
    for (NodeRef s : block_.statements) visit(s);
    // A loop's condition lives in its header block but is used by the Loop node itself.
    if (block_.owner)
      for (NodeRef op : block_.owner->operands) visit(op);
    return std::move(order_);
  }

 private:
  void visit(NodeRef n) {
    if (n->home != &block_ || !visited_.insert(n).second) return;
    for (NodeRef op : n->operands) {
      if (op->home == &block_)
        visit(op);
      else
        visit_free_uses(op);  // a loop condition in the loop's header block
    }
    // A compound statement needs every value of this block its nested blocks use.
    for (const Block* child : n->blocks) visit_free_uses(*child);
    order_.push_back(n);
  }

  void visit_free_uses(const Block& inner) {
    for (NodeRef s : inner.statements) visit_free_uses(s);
  }

  void visit_free_uses(NodeRef n) {
    if (n->home == &block_) {
      visit(n);
      return;
    }
    if (!inside(n->home) || !seen_inner_.insert(n).second) return;
    for (NodeRef op : n->operands) visit_free_uses(op);
    for (const Block* child : n->blocks) visit_free_uses(*child);
  }

  // Whether `b` is nested in this block (values of enclosing blocks are not ours).
  bool inside(const Block* b) const {
    for (; b; b = b->parent)
      if (b == &block_) return true;
    return false;
  }

  const Block& block_;
  std::unordered_set<NodeRef> visited_, seen_inner_;
  std::vector<NodeRef> order_;
};

}  // namespace

std::vector<NodeRef> schedule(const Block& block) { return Scheduler(block).run(); }

}  // namespace sprig::ir
