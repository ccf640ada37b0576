// The last step of tracing: facts about the whole kernel that backends rely on.
#include "sprig/dsl/kernel.hpp"
#include "sprig/dsl/semantic_hash.hpp"

namespace sprig::detail {

namespace {

// The buffer parameter a pointer leads to, or -1.
int buffer_param_of(ir::NodeRef pointer) {
  while (pointer->op == ir::Op::Access) pointer = pointer->operands[0];
  return pointer->op == ir::Op::BufferRoot ? int(pointer->a) : -1;
}

void scan_function(ir::Kernel& k, const ir::Function& f) {
  for (const auto& node : f.nodes) {
    const ir::Node& n = *node;
    if (n.type && n.type->is_64bit()) k.features.int64 = true;
    std::uint8_t use = 0;
    switch (n.op) {
      case ir::Op::Load: use = std::uint8_t(Access::Read); break;
      case ir::Op::Store: use = std::uint8_t(Access::Write); break;
      case ir::Op::Atomic: use = std::uint8_t(Access::ReadWrite); break;
      default: break;
    }
    if (use) {
      int p = buffer_param_of(n.operands[0]);
      if (p >= 0) k.params[std::size_t(p)].used |= use;
    }
  }
}

}  // namespace

void finish_kernel(ir::Kernel& k) {
  if (k.entry.body->statements.empty())
    throw TraceError("the kernel body records nothing (a native `return` ends tracing early; use return_())", k.loc,
                     k.name);
  for (const ir::Param& p : k.params)
    if (p.type->is_64bit()) k.features.int64 = true;
  scan_function(k, k.entry);
  for (const auto& f : k.functions) scan_function(k, *f);
  k.hash = ir::semantic_hash(k);
  k.debug_hash = ir::debug_hash(k);
}

}  // namespace sprig::detail
