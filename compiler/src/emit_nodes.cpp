// Blocks and the per-node dispatch: each block's nodes are emitted in the order
// ir::schedule gives (statements in program order, pure values right before their first
// use), and each op goes to the emit_* function of its file.
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

void Emitter::emit_node(const ir::Node& n) {
  f_.pending = n.loc;
  Id result = 0;
  using ir::Op;
  switch (n.op) {
    case Op::Constant: result = constant(n); break;
    case Op::Param: result = emit_param(n); break;
    case Op::Builtin: result = builtin_value(n); break;
    case Op::VarRoot:
    case Op::BufferRoot:
    case Op::SharedRoot:
    case Op::Access: emit_pointer(n); return;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Neg: result = emit_arithmetic(n); break;
    case Op::Div: result = emit_division(n); break;
    case Op::Rem: result = emit_remainder(n); break;
    case Op::FloorDiv:
    case Op::Mod: result = emit_floor_division(n); break;
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
    case Op::BitNot: result = emit_bitwise(n); break;
    case Op::Shl:
    case Op::Shr: result = emit_shift(n); break;
    case Op::LogicalAnd:
    case Op::LogicalOr:
    case Op::LogicalNot: result = emit_logic(n); break;
    case Op::Eq:
    case Op::Ne:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: result = emit_comparison(n); break;
    case Op::Select: result = emit_select(n); break;
    case Op::RotateLeft:
    case Op::RotateRight: result = emit_rotate(n); break;
    case Op::MulHi: result = emit_mul_hi(n); break;
    case Op::AddCarry: result = emit_add_carry(n); break;
    case Op::PopCount:
    case Op::CountLeadingZeros:
    case Op::CountTrailingZeros: result = emit_bit_count(n); break;
    case Op::BitReverse: result = emit_bit_reverse(n); break;
    case Op::ByteSwap: result = emit_byte_swap(n); break;
    case Op::BitfieldExtract: result = emit_bitfield_extract(n); break;
    case Op::BitfieldInsert: result = emit_bitfield_insert(n); break;
    case Op::Convert: result = emit_convert(n); break;
    case Op::Bitcast: result = emit_bitcast(n); break;
    case Op::Math: result = emit_math(n); break;
    case Op::Construct: result = emit_construct(n); break;
    case Op::Extract: result = emit_extract(n); break;
    case Op::Insert: result = emit_insert(n); break;
    case Op::DynamicExtract: result = emit_dynamic_extract(n); break;
    case Op::Shuffle: result = emit_shuffle(n); break;
    case Op::ArrayLength: result = emit_array_length(n); break;
    case Op::DeclareVar: emit_declare_var(n); break;
    case Op::Load: result = emit_load(n); break;
    case Op::Store: emit_store(n); break;
    case Op::Atomic: result = emit_atomic(n); break;
    case Op::Barrier: emit_barrier(n); break;
    case Op::Subgroup: result = emit_subgroup(n); break;
    case Op::Call: result = emit_call(n); break;
    case Op::If: emit_if(n); break;
    case Op::Loop: emit_loop(n); break;
    case Op::Break: emit_break(n); break;
    case Op::Continue: emit_continue(n); break;
    case Op::Return: emit_return(n); break;
  }
  if (result) {
    f_.values[n.id] = result;
    if (debug_ && !n.name.empty()) name(result, n.name);
  }
}

}  // namespace sprig::compiler
