// Blocks and the per-node dispatch: each block's nodes are emitted in the order
// ir::schedule gives (statements in program order, pure values right before their first
// use), and each op goes to the emit_* member its row in ops.def names.
#include <type_traits>

#include "emitter.hpp"
#include "sprig/dsl/topo.hpp"

namespace sprig::compiler {

void Emitter::emit_block(const ir::Block& block) {
  for (ir::NodeRef n : ir::schedule(block)) {
    // After a terminator (return, break, continue, or a construct nobody leaves) the rest
    // of the block is unreachable: SPIR-V has no place for it.
    if (!f_.open) return;
    emit_node(*n);
  }
}

// Emitters of statements without a value return void.
template <class Result>
Id Emitter::emitted(Result (Emitter::*emit)(const ir::Node&), const ir::Node& n) {
  if constexpr (std::is_void_v<Result>) {
    (this->*emit)(n);
    return 0;
  } else {
    return (this->*emit)(n);
  }
}

void Emitter::emit_node(const ir::Node& n) {
  f_.pending = n.loc;
  if (std::string problem = ir::operand_problem(n); !problem.empty()) fail("malformed IR: " + problem, &n);
  Id result = 0;
  // One case per row of ops.def: the member its `emit` column names.
  switch (n.op) {
#define SPRIG_OP(Name, Kind, Operands, Print, emit, simulate) \
  case ir::Op::Name: result = emitted(&Emitter::emit, n); break;
#include "sprig/dsl/ops.def"
#undef SPRIG_OP
  }
  if (result) {
    f_.values[n.id] = result;
    if (debug_ && !n.name.empty()) name(result, n.name);
    debug_value(n, result);
  }
}

}  // namespace sprig::compiler
