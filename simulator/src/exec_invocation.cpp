// Values that are the same for every execution of a node in a subgroup but come from the
// launch: builtins (ids and counts), kernel parameters (push constants, std430; uniforms,
// std140) and buffer lengths.
#include <algorithm>

#include "launch_state.hpp"
#include "program_builder.hpp"

namespace sprig::sim {

namespace {

void fill_row(Context& c, std::uint32_t slot, Word value) { std::fill_n(c.reg(slot), c.width, value); }

void builtin(Context& c, const Instr& in) {
  using B = ir::Builtin;
  const auto& size = c.program->kernel->workgroup_size;
  const std::uint32_t w = c.width;
  switch (B(in.aux)) {
    case B::GlobalInvocationId:
      for (std::uint32_t d = 0; d < 3; ++d) {
        Word* out = c.reg(in.dst + d);
        const std::uint32_t base = c.group->id[d] * size[d];
        for (std::uint32_t l = 0; l < w; ++l) out[l] = base + c.local_id[d][l];
      }
      return;
    case B::LocalInvocationId:
      for (std::uint32_t d = 0; d < 3; ++d) std::copy_n(c.local_id[d].data(), w, c.reg(in.dst + d));
      return;
    case B::WorkgroupId:
      for (std::uint32_t d = 0; d < 3; ++d) fill_row(c, in.dst + d, c.group->id[d]);
      return;
    case B::NumWorkgroups:
      for (std::uint32_t d = 0; d < 3; ++d) fill_row(c, in.dst + d, c.launch->workgroups[d]);
      return;
    case B::WorkgroupSize:
      for (std::uint32_t d = 0; d < 3; ++d) fill_row(c, in.dst + d, size[d]);
      return;
    case B::LocalInvocationIndex: std::copy_n(c.local_index.data(), w, c.reg(in.dst)); return;
    case B::SubgroupSize: fill_row(c, in.dst, w); return;
    case B::SubgroupInvocationId:
      for (std::uint32_t l = 0; l < w; ++l) c.reg(in.dst)[l] = l;
      return;
    case B::SubgroupId: fill_row(c, in.dst, c.subgroup); return;
    case B::NumSubgroups: fill_row(c, in.dst, std::uint32_t(c.group->subgroups.size())); return;
  }
}

// Kernel parameters read from bytes: aux = parameter index, imm = 1 for a uniform,
// data = the value's memory shape, target = byte offset (push constants).
void kernel_param(Context& c, const Instr& in) {
  const auto& shape = *static_cast<const MemoryShape*>(in.data);
  std::span<const std::byte> bytes = in.imm ? c.launch->uniforms[in.aux] : c.launch->push_constants;
  const std::size_t base = in.target;
  for (std::size_t k = 0; k < shape.leaves.size(); ++k) {
    const Leaf& leaf = shape.leaves[k];
    Word v = 0;
    if (base + leaf.offset + memory_bytes(leaf.kind) <= bytes.size())
      v = read_scalar(bytes.data() + base + leaf.offset, leaf.kind);
    fill_row(c, in.dst + std::uint32_t(k), v);
  }
}

// aux = parameter index, imm = the element stride.
void array_length(Context& c, const Instr& in) { fill_row(c, in.dst, c.launch->buffers[in.aux].size / in.imm); }

}  // namespace

void lower_invocation_value(ProgramBuilder& b, const ir::Node& n, Instr& in) {
  const ir::Kernel& k = b.kernel();
  switch (n.op) {
    case ir::Op::Builtin:
      in.run = builtin;
      in.aux = std::uint32_t(n.a);
      return;
    case ir::Op::ArrayLength: {
      const ir::Param& p = k.params.at(n.a);
      if (p.kind != ir::ParamKind::StorageBuffer) b.unsupported(n, "the length of a parameter that is not a buffer");
      in.run = array_length;
      in.aux = std::uint32_t(n.a);
      in.imm = ir::array_stride(p.type, ir::LayoutRule::Std430);
      return;
    }
    case ir::Op::Param: {
      const ir::Param& p = k.params.at(n.a);
      if (p.kind == ir::ParamKind::StorageBuffer) b.unsupported(n, "a buffer parameter used as a value");
      const bool uniform = p.kind == ir::ParamKind::Uniform;
      in.run = kernel_param;
      in.aux = std::uint32_t(n.a);
      in.imm = uniform;
      in.target = uniform ? 0 : p.push_offset;
      in.data = b.shape(n.type, uniform ? ir::LayoutRule::Std140 : ir::LayoutRule::Std430);
      return;
    }
    default: b.unsupported(n, "this value");
  }
}

}  // namespace sprig::sim
