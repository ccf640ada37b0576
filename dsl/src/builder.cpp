#include "sprig/dsl/builder.hpp"

#include <functional>

namespace sprig::ir {

namespace {

thread_local Builder* current_builder = nullptr;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  // A 64-bit multiplicative mix (splitmix-style constants); collisions are resolved by a
  // full comparison, so this only needs to spread values.
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xbf58476d1ce4e5b9ull;
}

std::uint64_t structural_hash(Op op, TypeRef type, const std::vector<NodeRef>& operands, std::uint64_t a,
                              std::uint64_t b, const std::vector<std::uint64_t>& imm, Space space) {
  std::uint64_t h = mix(std::uint64_t(op), reinterpret_cast<std::uintptr_t>(type));
  h = mix(h, std::uint64_t(space));
  for (NodeRef o : operands) h = mix(h, reinterpret_cast<std::uintptr_t>(o));
  h = mix(mix(h, a), b);
  for (std::uint64_t v : imm) h = mix(h, v);
  return h;
}

bool encloses(const Block* outer, const Block* inner) {
  for (; inner; inner = inner->parent)
    if (inner == outer) return true;
  return false;
}

}  // namespace

Builder& Builder::current(const SourceLoc& loc) {
  if (!current_builder)
    throw TraceError("this DSL operation is only valid inside a kernel or callable being traced", loc);
  return *current_builder;
}

Builder* Builder::active() { return current_builder; }

Builder::Builder(Kernel& kernel) : kernel_(&kernel), previous_(current_builder) {
  Frame frame{&kernel.entry, {}, {}, 0};
  kernel.entry.body = make_block_in(kernel.entry, nullptr, nullptr);
  frame.blocks.push_back(kernel.entry.body);
  frames_.push_back(std::move(frame));
  current_builder = this;
}

Builder::~Builder() { current_builder = previous_; }

Block* Builder::make_block_in(Function& f, Block* parent, NodeRef owner) {
  f.blocks.push_back(std::make_unique<Block>());
  Block* b = f.blocks.back().get();
  b->parent = parent;
  b->owner = owner;
  return b;
}

Block* Builder::new_block(NodeRef owner) {
  Block* b = make_block_in(function(), block(), owner);
  owner->blocks.push_back(b);
  return b;
}

NodeRef Builder::make(Op op, TypeRef type, std::vector<NodeRef> operands, const SourceLoc& loc) {
  for (NodeRef o : operands) check_visible(o, loc);
  Function& f = function();
  f.nodes.push_back(std::make_unique<Node>());
  NodeRef n = f.nodes.back().get();
  n->op = op;
  n->type = type;
  n->operands = std::move(operands);
  n->home = block();
  n->loc = loc;
  n->id = frames_.back().next_id++;
  return n;
}

NodeRef Builder::pure(Op op, TypeRef type, std::vector<NodeRef> operands, const SourceLoc& loc, std::uint64_t a,
                      std::uint64_t b, std::vector<std::uint64_t> imm, Space space) {
  std::uint64_t h = structural_hash(op, type, operands, a, b, imm, space);
  auto& bucket = frames_.back().pure_nodes[h];
  for (NodeRef n : bucket) {
    if (n->op == op && n->type == type && n->space == space && n->a == a && n->b == b && n->operands == operands &&
        n->imm == imm && encloses(n->home, block()))
      return n;
  }
  NodeRef n = make(op, type, std::move(operands), loc);
  n->a = a;
  n->b = b;
  n->imm = std::move(imm);
  n->space = space;
  bucket.push_back(n);
  return n;
}

NodeRef Builder::statement(Op op, TypeRef type, std::vector<NodeRef> operands, const SourceLoc& loc, std::uint64_t a,
                           std::uint64_t b) {
  NodeRef n = make(op, type, std::move(operands), loc);
  n->a = a;
  n->b = b;
  block()->statements.push_back(n);
  return n;
}

std::uint32_t Builder::add_variable(TypeRef type, std::string name, const SourceLoc& loc) {
  Function& f = function();
  f.vars.push_back(Variable{type, std::move(name), loc});
  return std::uint32_t(f.vars.size() - 1);
}

std::uint32_t Builder::function_index(const void* key) const {
  auto it = callables_.find(key);
  return it == callables_.end() ? ~0u : it->second;
}

std::uint32_t Builder::begin_function(const void* key, std::string name, std::vector<TypeRef> params, TypeRef result,
                                      const SourceLoc& loc) {
  kernel_->functions.push_back(std::make_unique<Function>());
  Function& f = *kernel_->functions.back();
  f.name = std::move(name);
  f.param_types = std::move(params);
  f.result = result;
  f.loc = loc;
  f.body = make_block_in(f, nullptr, nullptr);
  std::uint32_t index = std::uint32_t(kernel_->functions.size() - 1);
  callables_[key] = index;
  frames_.push_back(Frame{&f, {f.body}, {}, 0});
  return index;
}

void Builder::end_function() { frames_.pop_back(); }

void Builder::check_not_recursive(std::uint32_t index, const SourceLoc& loc) const {
  const Function* f = kernel_->functions.at(index).get();
  for (const Frame& frame : frames_)
    if (frame.function == f)
      throw TraceError("callable '" + f->name + "' calls itself; recursion is not possible on GPUs", loc,
                       kernel_->name);
}

void Builder::check_visible(NodeRef value, const SourceLoc& use) const {
  const Frame& frame = frames_.back();
  if (value->home && !encloses(value->home, frame.blocks.back())) {
    bool other_function = true;
    for (const auto& node : frame.function->nodes)
      if (node.get() == value) other_function = false;
    if (other_function)
      throw TraceError("a value traced in another kernel or callable is used here; pass it as a callable "
                       "parameter instead",
                       use, kernel_->name);
    throw TraceError("a value computed inside an if_/loop body (at " + value->loc.str() +
                         ") is used outside that body; use a Var<T> for values that change under device "
                         "control flow",
                     use, kernel_->name);
  }
}

bool Builder::in_loop() const {
  for (const Block* b = frames_.back().blocks.back(); b; b = b->parent)
    if (b->owner && b->owner->op == Op::Loop) return true;
  return false;
}

}  // namespace sprig::ir
