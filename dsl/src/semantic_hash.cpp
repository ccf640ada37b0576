#include "sprig/dsl/semantic_hash.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sprig::ir {

namespace {

// FNV-1a over 64-bit words: simple, and the same in every process, because the hash keys
// SPIR-V cached on disk as well as the in-memory pipeline caches. Types are hashed by their
// structure (with struct and field names, which are part of a struct's identity), never by
// their interned addresses, which differ from one process to the next.
class Hasher {
 public:
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xff;
      h_ *= 0x100000001b3ull;
    }
  }
  void add(const std::string& text) {
    add(text.size());
    for (char c : text) add(std::uint64_t(static_cast<unsigned char>(c)));
  }
  void add(TypeRef t) {
    if (t == nullptr) return add(std::uint64_t(0xffff));
    add(std::uint64_t(t->kind));
    add(std::uint64_t(t->scalar));
    add(t->count);
    if (t->is_array()) add(t->element);
    if (t->is_struct()) {
      add(t->name);
      add(t->fields.size());
      for (const Field& f : t->fields) {
        add(f.name);
        add(f.type);
      }
    }
  }
  void add(const SourceLoc& loc) {
    add(std::string(loc.file ? loc.file : ""));
    add(loc.line);
    add(loc.column);
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

// The nodes and blocks of a function numbered by the code's structure, not by the order of
// tracing: blocks from the body down, each block's statements in order, each preceded by the
// values it uses not numbered yet (depth first, operands in order), then the blocks it
// owns. A pure node that nothing uses is never reached: both backends drop it
// (ir::schedule), and so does the hash. So the values that a device_print of a kernel
// traced with prints off computes, and the constants they were first to make, leave the
// kernel's hash alone.
struct CompiledOrder {
  static constexpr std::uint64_t unnumbered = ~std::uint64_t(0);
  std::vector<const Node*> nodes;
  std::vector<const Block*> blocks;
  std::vector<std::uint64_t> node_index;  // by Node::id
  std::unordered_map<const Block*, std::uint64_t> block_index;

  explicit CompiledOrder(const Function& f) {
    std::uint32_t ids = 0;
    for (const auto& n : f.nodes) ids = std::max(ids, n->id + 1);
    node_index.assign(ids, unnumbered);
    add(*f.body);
  }

  std::uint64_t index(const Node* n) const {
    std::uint64_t i = n->id < node_index.size() ? node_index[n->id] : unnumbered;
    if (i == unnumbered) throw std::logic_error("semantic_hash: an operand of another function");
    return i;
  }

 private:
  void add(const Block& b) {
    block_index.emplace(&b, blocks.size());
    blocks.push_back(&b);
    for (NodeRef s : b.statements) {
      number(s);
      for (const Block* child : s->blocks) add(*child);
    }
  }

  // Post-order over operands, without recursion: chains of values run deep.
  void number(const Node* root) {
    std::vector<std::pair<const Node*, std::size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (next == 0 && node_index.at(n->id) != unnumbered) {
        stack.pop_back();
        continue;
      }
      if (next < n->operands.size()) {
        const Node* operand = n->operands[next++];
        if (node_index.at(operand->id) == unnumbered) stack.push_back({operand, 0});
        continue;
      }
      node_index[n->id] = nodes.size();
      nodes.push_back(n);
      stack.pop_back();
    }
  }
};

void hash_function(Hasher& h, const Function& f) {
  const CompiledOrder order(f);
  h.add(f.result);
  for (TypeRef t : f.param_types) h.add(t);
  for (const Variable& v : f.vars) h.add(v.type);
  for (const Node* node : order.nodes) {
    const Node& n = *node;
    h.add(std::uint64_t(n.op));
    h.add(n.type);
    h.add(std::uint64_t(n.space));
    h.add(n.a);
    h.add(n.b);
    h.add(n.imm.size());
    for (std::uint64_t v : n.imm) h.add(v);
    h.add(n.operands.size());
    for (NodeRef o : n.operands) h.add(order.index(o));
    for (const Block* b : n.blocks) h.add(order.block_index.at(b));
    h.add(order.block_index.at(n.home));
  }
  for (const Block* b : order.blocks) {
    h.add(b->statements.size());
    for (NodeRef s : b->statements) h.add(order.index(s));
  }
}

void hash_function_names(Hasher& h, const Function& f) {
  h.add(f.name);
  h.add(f.loc);
  for (const Variable& v : f.vars) {
    h.add(v.name);
    h.add(v.loc);
  }
  for (const auto& node : f.nodes) {
    h.add(node->name);
    h.add(node->loc);
  }
}

}  // namespace

std::uint64_t semantic_hash(const Kernel& k) {
  Hasher h;
  for (std::uint32_t s : k.workgroup_size) h.add(s);
  h.add(k.push_constant_size);
  h.add(k.features.required_subgroup_size);
  h.add(std::uint64_t(k.precise_floats));  // precise and plain kernels emit different code
  for (const Param& p : k.params) {
    h.add(std::uint64_t(p.kind));
    h.add(p.type);
    h.add(std::uint64_t(p.access));
    h.add(std::uint64_t(p.coherent));
    h.add(p.binding);
    h.add(p.push_offset);
  }
  for (const SharedVariable& s : k.shared) h.add(s.type);
  hash_function(h, k.entry);
  for (const auto& f : k.functions) hash_function(h, *f);
  return h.value();
}

std::uint64_t debug_hash(const Kernel& k) {
  Hasher h;
  h.add(k.name);
  h.add(k.loc);
  for (const Param& p : k.params) h.add(p.name);
  for (const SharedVariable& s : k.shared) {
    h.add(s.name);
    h.add(s.loc);
  }
  hash_function_names(h, k.entry);
  for (const auto& f : k.functions) hash_function_names(h, *f);
  return h.value();
}

}  // namespace sprig::ir
