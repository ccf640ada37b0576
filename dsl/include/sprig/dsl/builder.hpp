// The trace-time builder: while a kernel lambda runs, a thread-local Builder records the
// nodes that DSL calls create. It owns node creation (hash-consing of pure nodes within a
// block and its ancestors) and the stack of blocks that control-flow calls open.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "sprig/dsl/error.hpp"
#include "sprig/dsl/ir.hpp"

namespace sprig::ir {

class Builder {
 public:
  // The builder tracing on this thread; throws a TraceError located at `loc` if no kernel
  // is being traced (a DSL call outside a kernel lambda).
  static Builder& current(const SourceLoc& loc);
  static Builder* active();

  Kernel& kernel() { return *kernel_; }
  Function& function() { return *frames_.back().function; }
  Block* block() { return frames_.back().blocks.back(); }

  // A pure node, shared with an identical one visible from the current block.
  NodeRef pure(Op op, TypeRef type, std::vector<NodeRef> operands, const SourceLoc& loc, std::uint64_t a = 0,
               std::uint64_t b = 0, std::vector<std::uint64_t> imm = {}, Space space = Space::None);
  // A statement appended to the current block.
  NodeRef statement(Op op, TypeRef type, std::vector<NodeRef> operands, const SourceLoc& loc,
                    std::uint64_t a = 0, std::uint64_t b = 0);

  // A new block nested in the current one, owned by `owner`; not entered.
  Block* new_block(NodeRef owner);
  // Trace `body` into `block`; returns how many statements it recorded.
  template <class F>
  std::size_t trace_into(Block* block, F&& body) {
    enter(block);
    struct Leave {
      Builder* b;
      ~Leave() { b->leave(); }
    } leave{this};
    std::forward<F>(body)();
    return block->statements.size();
  }

  // Declares a Function-storage variable in the current function; returns its index.
  std::uint32_t add_variable(TypeRef type, std::string name, const SourceLoc& loc);

  // Callables: trace the callable's body into a new function the first time a kernel
  // calls it; `key` identifies the callable object.
  std::uint32_t function_index(const void* key) const;
  std::uint32_t begin_function(const void* key, std::string name, std::vector<TypeRef> params, TypeRef result,
                               const SourceLoc& loc);
  void end_function();
  // Throws if function `index` is being traced (a callable calling itself).
  void check_not_recursive(std::uint32_t index, const SourceLoc& loc) const;

  // Checks that `value` may be used in the current block: it must have been traced in
  // this block or an enclosing one.
  void check_visible(NodeRef value, const SourceLoc& use) const;
  // Whether the current block is inside a loop of the current function (for break_).
  bool in_loop() const;
  // Whether a callable (rather than the kernel) is being traced.
  bool in_callable() const { return frames_.size() > 1; }

  // Used by kernel tracing only.
  explicit Builder(Kernel& kernel);
  ~Builder();
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

 private:
  struct Frame {
    Function* function;
    std::vector<Block*> blocks;
    std::unordered_map<std::uint64_t, std::vector<NodeRef>> pure_nodes;  // by structural hash
    std::uint32_t next_id = 0;
  };

  void enter(Block* block) { frames_.back().blocks.push_back(block); }
  void leave() { frames_.back().blocks.pop_back(); }
  NodeRef make(Op op, TypeRef type, std::vector<NodeRef> operands, const SourceLoc& loc);
  static Block* make_block_in(Function& f, Block* parent, NodeRef owner);

  Kernel* kernel_;
  Builder* previous_;
  std::vector<Frame> frames_;
  std::unordered_map<const void*, std::uint32_t> callables_;
};

}  // namespace sprig::ir
