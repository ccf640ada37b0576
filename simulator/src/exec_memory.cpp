// Pointers (Access), local variable declarations, loads and stores, in every storage
// class the IR has: buffers (std430 bytes of the binding), shared memory (the
// workgroup's bytes) and Function variables (each lane's own bytes). Nothing outside the
// root variable is ever touched: an out-of-bounds lane is reported, reads 0 and writes
// nothing.
#include <algorithm>
#include <cstring>

#include "memory_access.hpp"
#include "program_builder.hpp"

namespace sprig::sim {

namespace {

// ---- Access: imm = constant byte offset or stride; aux = element count (0: unbounded,
// a runtime array); count = 1 if the index is signed.
void access_constant(Context& c, const Instr& in) {
  Word* d = c.reg(in.dst);
  const Word* base = c.reg(in.src[0]);
  for (std::uint32_t l = 0; l < c.width; ++l) d[l] = base[l] & poison_bit ? base[l] : base[l] + in.imm;
}

template <bool signed_index, bool bounded>
void access_dynamic(Context& c, const Instr& in) {
  Word* d = c.reg(in.dst);
  const Word* base = c.reg(in.src[0]);
  const Word* index = c.reg(in.src[1]);
  const std::uint32_t pc = std::uint32_t(&in - c.program->code.data());
  for (std::uint32_t l = 0; l < c.width; ++l) {
    std::uint64_t i = signed_index ? std::uint64_t(std::int64_t(get<std::int32_t>(index[l]))) : get<std::uint32_t>(index[l]);
    bool bad = signed_index && std::int64_t(i) < 0;
    if constexpr (bounded) bad = bad || i >= in.aux;
    d[l] = base[l] & poison_bit ? base[l] : bad ? poisoned(i, pc) : base[l] + i * in.imm;
  }
}

// ---- loads and stores: src0 = pointer; Load: dst = value; Store: src1 = value.
template <ir::Space S>
void load(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const MemoryShape& shape = *op.shape;
  const Word* ptr = c.reg(in.src[0]);
  Mask done = 0;
  for_each_lane(c.active, [&](std::uint32_t l) {
    Region r = region_of<S>(c, op, l);
    if (!in_bounds(ptr[l], shape.size, r.size)) [[unlikely]] {
      for (std::uint32_t k = 0; k < shape.leaves.size(); ++k) c.reg(in.dst + k)[l] = 0;
      report_bad_access(c, in, op, l, ptr[l], shape.size, r.size, AccessKind::Read);
      return;
    }
    const std::byte* p = r.base + ptr[l];
    for (std::uint32_t k = 0; k < shape.leaves.size(); ++k)
      c.reg(in.dst + k)[l] = read_scalar(p + shape.leaves[k].offset, shape.leaves[k].kind);
    done |= lane_bit(l);
  });
  if constexpr (S == ir::Space::StorageBuffer) c.iteration_polled |= op.coherent;
  if (c.observer) [[unlikely]]
    notify_access(c, in, op, AccessKind::Read, done, ptr);
}

template <ir::Space S>
void store(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const MemoryShape& shape = *op.shape;
  const Word* ptr = c.reg(in.src[0]);
  Mask done = 0;
  for_each_lane(c.active, [&](std::uint32_t l) {
    Region r = region_of<S>(c, op, l);
    if (!in_bounds(ptr[l], shape.size, r.size)) [[unlikely]] {
      report_bad_access(c, in, op, l, ptr[l], shape.size, r.size, AccessKind::Write);
      return;
    }
    std::byte* p = r.base + ptr[l];
    for (std::uint32_t k = 0; k < shape.leaves.size(); ++k)
      write_scalar(p + shape.leaves[k].offset, shape.leaves[k].kind, c.reg(in.src[1] + k)[l]);
    done |= lane_bit(l);
  });
  if constexpr (S != ir::Space::Function) {
    c.iteration_wrote = true;
    ++c.launch->memory_epoch;
  }
  if (c.observer) [[unlikely]]
    notify_access(c, in, op, AccessKind::Write, done, ptr);
}

// A declaration (re)initialises the variable each time it runs: zero, then the initial
// value if there is one (aux = 1, src0 = the value).
void declare_variable(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const MemoryShape& shape = *op.shape;
  for_each_lane(c.active, [&](std::uint32_t l) {
    std::byte* p = c.lane_vars(l) + op.root_offset;
    std::memset(p, 0, op.root_size);
    if (in.aux)
      for (std::uint32_t k = 0; k < shape.leaves.size(); ++k)
        write_scalar(p + shape.leaves[k].offset, shape.leaves[k].kind, c.reg(in.src[0] + k)[l]);
  });
  if (c.observer) [[unlikely]] {
    static constexpr std::uint64_t zero_offsets[64] = {};
    notify_access(c, in, op, AccessKind::Write, c.active, zero_offsets);
  }
}

Handler load_for(ir::Space s) {
  switch (s) {
    case ir::Space::StorageBuffer: return load<ir::Space::StorageBuffer>;
    case ir::Space::Workgroup: return load<ir::Space::Workgroup>;
    default: return load<ir::Space::Function>;
  }
}

Handler store_for(ir::Space s) {
  switch (s) {
    case ir::Space::StorageBuffer: return store<ir::Space::StorageBuffer>;
    case ir::Space::Workgroup: return store<ir::Space::Workgroup>;
    default: return store<ir::Space::Function>;
  }
}

const ir::Node* root_of(const ir::Node* pointer) {
  while (pointer->op == ir::Op::Access) pointer = pointer->operands.at(0);
  return pointer;
}

void lower_access(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  const ir::Node& base = *n.operands.at(0);
  const ir::Node& index = *n.operands.at(1);
  const ir::TypeRef t = base.type;
  if (n.space != ir::Space::StorageBuffer && n.space != ir::Space::Workgroup && n.space != ir::Space::Function)
    b.unsupported(n, "pointers into this storage class");
  const ir::LayoutRule rule = ir::LayoutRule::Std430;
  std::uint64_t stride = 0;
  std::uint32_t bound = 0;
  if (base.op == ir::Op::BufferRoot) {
    stride = ir::array_stride(t, rule);  // a runtime array: bounded by the binding's size
  } else if (t->is_struct()) {
    if (index.op != ir::Op::Constant || index.imm.at(0) >= t->fields.size()) b.unsupported(n, "a struct field chosen at run time");
    in.run = access_constant;
    in.imm = ir::layout_of(t, rule).offsets[index.imm[0]];
    return;
  } else if (t->is_array()) {
    stride = ir::layout_of(t, rule).stride;
    bound = t->count;
  } else if (t->is_vector()) {
    stride = memory_bytes(t->scalar);
    bound = t->count;
  } else {
    b.unsupported(n, "indexing into " + ir::to_string(t));
  }
  if (!index.type->is_scalar() || !index.type->is_int() || index.type->is_64bit()) b.unsupported(n, "a 64-bit or non-integer index");
  if (index.op == ir::Op::Constant && bound != 0 && index.imm[0] < bound) {
    in.run = access_constant;
    in.imm = index.imm[0] * stride;
    return;
  }
  const bool is_signed = index.type->is_signed_int();
  in.imm = stride;
  in.aux = bound;
  if (bound) in.run = is_signed ? access_dynamic<true, true> : access_dynamic<false, true>;
  else in.run = is_signed ? access_dynamic<true, false> : access_dynamic<false, false>;
}

}  // namespace

MemoryOp memory_op_for(ProgramBuilder& b, const ir::Node& site, const ir::Node* pointer, ir::TypeRef value) {
  const ir::Node* root = root_of(pointer);
  MemoryOp op;
  op.space = root->space;
  op.root = std::uint32_t(root->a);
  op.shape = b.shape(value, ir::LayoutRule::Std430);
  switch (root->op) {
    case ir::Op::BufferRoot: {
      const ir::Param& p = b.kernel().params.at(root->a);
      if (p.kind != ir::ParamKind::StorageBuffer) b.unsupported(site, "a buffer access through a non-buffer parameter");
      op.coherent = p.coherent;
      break;
    }
    case ir::Op::SharedRoot:
      op.root_offset = b.program().shared.offsets.at(root->a);
      op.root_size = b.program().shared.sizes.at(root->a);
      break;
    case ir::Op::VarRoot: {
      const FunctionLayout& fl = b.layout(b.function_index());
      op.root_offset = fl.var_offsets.at(root->a);
      op.root_size = fl.var_sizes.at(root->a);
      break;
    }
    default: b.unsupported(site, "memory accesses through " + std::string(ir::op_name(root->op)));
  }
  return op;
}

void lower_memory(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  switch (n.op) {
    case ir::Op::Access: lower_access(b, n, in); return;
    case ir::Op::Load:
      in.run = load_for(n.operands.at(0)->space);
      in.data = b.program().keep(memory_op_for(b, n, n.operands[0], n.type));
      return;
    case ir::Op::Store:
      in.run = store_for(n.operands.at(0)->space);
      in.data = b.program().keep(memory_op_for(b, n, n.operands[0], n.operands.at(1)->type));
      return;
    case ir::Op::DeclareVar: {
      const FunctionLayout& fl = b.layout(b.function_index());
      const ir::Variable& v = (b.function_index() == 0 ? b.kernel().entry : *b.kernel().functions[b.function_index() - 1]).vars.at(n.a);
      MemoryOp op;
      op.space = ir::Space::Function;
      op.root = std::uint32_t(n.a);
      op.root_offset = fl.var_offsets.at(n.a);
      op.root_size = fl.var_sizes.at(n.a);
      op.shape = b.shape(v.type, ir::LayoutRule::Std430);
      in.run = declare_variable;
      in.aux = !n.operands.empty();
      in.data = b.program().keep(op);
      return;
    }
    default: b.unsupported(n, "this memory operation");
  }
}

}  // namespace sprig::sim
