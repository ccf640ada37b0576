// Pointers (Access), local variable declarations, loads and stores, in every storage
// class the IR has: buffers (std430 bytes of the binding), shared memory (the
// workgroup's bytes) and Function variables (each lane's own bytes). Nothing outside the
// root variable is ever touched: an out-of-bounds lane is reported, reads 0 and writes
// nothing.
#include <algorithm>
#include <cstring>

#include "analysis/launch_analysis.hpp"
#include "memory_access.hpp"
#include "parallel_launch.hpp"
#include "program_builder.hpp"
#include "transient_check.hpp"

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
    std::uint64_t i =
        signed_index ? std::uint64_t(std::int64_t(get<std::int32_t>(index[l]))) : get<std::uint32_t>(index[l]);
    bool bad = signed_index && std::int64_t(i) < 0;
    if constexpr (bounded) bad = bad || i >= in.aux;
    d[l] = base[l] & poison_bit ? base[l] : bad ? poisoned(i, pc) : base[l] + i * in.imm;
  }
}

// ---- loads and stores: src0 = pointer; Load: dst = value; Store: src1 = value.

// Local variables reached through constant indices (most loop counters and accumulators):
// no bounds to check, the same offset in every lane's variable area.
template <bool scalar>
void load_local(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const MemoryShape& shape = *op.shape;
  const std::uint32_t at = op.root_offset + *op.fixed_offset;
  for_each_lane(c.active, c.width, [&](std::uint32_t l) {
    const std::byte* p = c.lane_vars(l) + at;
    if constexpr (scalar) {
      c.reg(in.dst)[l] = read_scalar(p + shape.leaves[0].offset, shape.leaves[0].kind);
    } else {
      for (std::uint32_t k = 0; k < shape.leaves.size(); ++k)
        c.reg(in.dst + k)[l] = read_scalar(p + shape.leaves[k].offset, shape.leaves[k].kind);
    }
  });
  if (c.observer) [[unlikely]]
    notify_access(c, in, op, AccessKind::Read, c.active, c.reg(in.src[0]));
}

template <bool scalar>
void store_local(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const MemoryShape& shape = *op.shape;
  const std::uint32_t at = op.root_offset + *op.fixed_offset;
  for_each_lane(c.active, c.width, [&](std::uint32_t l) {
    std::byte* p = c.lane_vars(l) + at;
    if constexpr (scalar) {
      write_scalar(p + shape.leaves[0].offset, shape.leaves[0].kind, c.reg(in.src[1])[l]);
    } else {
      for (std::uint32_t k = 0; k < shape.leaves.size(); ++k)
        write_scalar(p + shape.leaves[k].offset, shape.leaves[k].kind, c.reg(in.src[1] + k)[l]);
    }
  });
  if (c.observer) [[unlikely]]
    notify_access(c, in, op, AccessKind::Write, c.active, c.reg(in.src[0]));
}

// Where each lane's root starts: the one buffer or shared variable, or for Function
// memory the lane's own copy of the variable (lanes' variable areas are var_stride apart).
template <ir::Space S>
struct Roots {
  Region first;
  std::size_t stride;
  Roots(Context& c, const MemoryOp& op)
      : first(region_of<S>(c, op, 0)), stride(S == ir::Space::Function ? c.var_stride : 0) {}
  std::byte* base(std::uint32_t lane) const { return first.base + lane * stride; }
};

template <ir::Space S, bool scalar>
void load(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const MemoryShape& shape = *op.shape;
  const Roots<S> roots(c, op);
  const Word* ptr = c.reg(in.src[0]);
  Word* out = c.reg(in.dst);
  Mask done = 0;
  for_each_lane(c.active, c.width, [&](std::uint32_t l) {
    if (!in_bounds(ptr[l], shape.size, roots.first.size)) [[unlikely]] {
      for (std::uint32_t k = 0; k < shape.leaves.size(); ++k) c.reg(in.dst + k)[l] = 0;
      report_bad_access(c, in, op, l, ptr[l], shape.size, roots.first.size, AccessKind::Read);
      return;
    }
    const std::byte* p = roots.base(l) + ptr[l];
    if constexpr (scalar) {
      out[l] = read_scalar(p + shape.leaves[0].offset, shape.leaves[0].kind);
    } else {
      for (std::uint32_t k = 0; k < shape.leaves.size(); ++k)
        c.reg(in.dst + k)[l] = read_scalar(p + shape.leaves[k].offset, shape.leaves[k].kind);
    }
    done |= lane_bit(l);
  });
  if constexpr (S == ir::Space::StorageBuffer) {
    c.iteration_polled |= op.coherent;
    if (c.launch->buffers[op.root].owners) [[unlikely]]
      check_transient(c, in, op, AccessKind::Read, done, ptr, shape.size);
    if (c.launch->buffers[op.root].contact) note_contact(c, c.launch->buffers[op.root], done, ptr, shape.size, false);
  }
  if (c.observer) [[unlikely]]
    notify_access(c, in, op, AccessKind::Read, done, ptr);
  if constexpr (S != ir::Space::Function)
    if (c.analysis) [[unlikely]]
      c.analysis->memory(c, in, op, AccessKind::Read, done, ptr);
}

template <ir::Space S, bool scalar>
void store(Context& c, const Instr& in) {
  const MemoryOp& op = *static_cast<const MemoryOp*>(in.data);
  const MemoryShape& shape = *op.shape;
  const Roots<S> roots(c, op);
  const Word* ptr = c.reg(in.src[0]);
  const Word* value = c.reg(in.src[1]);
  Mask done = 0;
  for_each_lane(c.active, c.width, [&](std::uint32_t l) {
    if (!in_bounds(ptr[l], shape.size, roots.first.size)) [[unlikely]] {
      report_bad_access(c, in, op, l, ptr[l], shape.size, roots.first.size, AccessKind::Write);
      return;
    }
    std::byte* p = roots.base(l) + ptr[l];
    if constexpr (scalar) {
      write_scalar(p + shape.leaves[0].offset, shape.leaves[0].kind, value[l]);
    } else {
      for (std::uint32_t k = 0; k < shape.leaves.size(); ++k)
        write_scalar(p + shape.leaves[k].offset, shape.leaves[k].kind, c.reg(in.src[1] + k)[l]);
    }
    done |= lane_bit(l);
  });
  if constexpr (S != ir::Space::Function) {
    c.iteration_wrote = true;
    ++c.launch->memory_epoch;
  }
  if constexpr (S == ir::Space::StorageBuffer) {
    if (c.launch->buffers[op.root].owners) [[unlikely]]
      check_transient(c, in, op, AccessKind::Write, done, ptr, shape.size);
    if (c.launch->buffers[op.root].contact) note_contact(c, c.launch->buffers[op.root], done, ptr, shape.size, true);
  }
  if (c.observer) [[unlikely]]
    notify_access(c, in, op, AccessKind::Write, done, ptr);
  if constexpr (S != ir::Space::Function)
    if (c.analysis) [[unlikely]]
      c.analysis->memory(c, in, op, AccessKind::Write, done, ptr);
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

template <bool scalar>
Handler load_for(ir::Space s) {
  switch (s) {
    case ir::Space::StorageBuffer: return load<ir::Space::StorageBuffer, scalar>;
    case ir::Space::Workgroup: return load<ir::Space::Workgroup, scalar>;
    default: return load<ir::Space::Function, scalar>;
  }
}

template <bool scalar>
Handler store_for(ir::Space s) {
  switch (s) {
    case ir::Space::StorageBuffer: return store<ir::Space::StorageBuffer, scalar>;
    case ir::Space::Workgroup: return store<ir::Space::Workgroup, scalar>;
    default: return store<ir::Space::Function, scalar>;
  }
}

// The byte offset of `pointer` from its root when every index on the way is a constant
// within its range (std430, like every memory the interpreter addresses).
std::optional<std::uint32_t> constant_offset(const ir::Node* pointer) {
  std::uint32_t offset = 0;
  for (; pointer->op == ir::Op::Access; pointer = pointer->operands[0]) {
    const ir::Node& index = *pointer->operands.at(1);
    const ir::TypeRef t = pointer->operands[0]->type;
    if (index.op != ir::Op::Constant || pointer->operands[0]->op == ir::Op::BufferRoot) return std::nullopt;
    const std::uint64_t i = index.imm.at(0);
    if (t->is_struct() && i < t->fields.size()) offset += ir::layout_of(t, ir::LayoutRule::Std430).offsets[i];
    else if (t->is_array() && i < t->count)
      offset += std::uint32_t(i) * ir::layout_of(t, ir::LayoutRule::Std430).stride;
    else if (t->is_vector() && i < t->count) offset += std::uint32_t(i) * memory_bytes(t->scalar);
    else return std::nullopt;
  }
  return offset;
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
    if (index.op != ir::Op::Constant || index.imm.at(0) >= t->fields.size())
      b.unsupported(n, "a struct field chosen at run time");
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
  if (!index.type->is_scalar() || !index.type->is_int() || index.type->is_64bit())
    b.unsupported(n, "a 64-bit or non-integer index");
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
      op.fixed_offset = constant_offset(pointer);
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
    case ir::Op::Store: {
      const bool is_load = n.op == ir::Op::Load;
      MemoryOp op = memory_op_for(b, n, n.operands.at(0), is_load ? n.type : n.operands.at(1)->type);
      const bool scalar = op.shape->leaves.size() == 1;
      if (op.fixed_offset) {
        if (is_load) in.run = scalar ? load_local<true> : load_local<false>;
        else in.run = scalar ? store_local<true> : store_local<false>;
      } else {
        if (is_load) in.run = scalar ? load_for<true>(op.space) : load_for<false>(op.space);
        else in.run = scalar ? store_for<true>(op.space) : store_for<false>(op.space);
      }
      in.data = b.program().keep(op);
      return;
    }
    case ir::Op::DeclareVar: {
      const FunctionLayout& fl = b.layout(b.function_index());
      const ir::Variable& v =
          (b.function_index() == 0 ? b.kernel().entry : *b.kernel().functions[b.function_index() - 1]).vars.at(n.a);
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
