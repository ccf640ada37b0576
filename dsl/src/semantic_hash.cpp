#include "sprig/dsl/semantic_hash.hpp"

#include <string>
#include <unordered_map>

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

void hash_function(Hasher& h, const Function& f) {
  std::unordered_map<const Block*, std::uint64_t> block_ids;
  for (std::size_t i = 0; i < f.blocks.size(); ++i) block_ids[f.blocks[i].get()] = i;
  h.add(f.result);
  for (TypeRef t : f.param_types) h.add(t);
  for (const Variable& v : f.vars) h.add(v.type);
  for (const auto& node : f.nodes) {
    const Node& n = *node;
    h.add(std::uint64_t(n.op));
    h.add(n.type);
    h.add(std::uint64_t(n.space));
    h.add(n.a);
    h.add(n.b);
    h.add(n.imm.size());
    for (std::uint64_t v : n.imm) h.add(v);
    h.add(n.operands.size());
    for (NodeRef o : n.operands) h.add(o->id);
    for (const Block* b : n.blocks) h.add(block_ids.at(b));
    h.add(block_ids.at(n.home));
  }
  for (const auto& b : f.blocks) {
    h.add(b->statements.size());
    for (NodeRef s : b->statements) h.add(s->id);
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
