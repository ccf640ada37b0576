// The messages of bad memory accesses: which variable, which element, how big it is.
#include "memory_access.hpp"

namespace sprig::sim {

namespace {

std::string root_name(const Context& c, const MemoryOp& op) {
  const ir::Kernel& k = *c.program->kernel;
  switch (op.space) {
    case ir::Space::StorageBuffer: {
      const ir::Param& p = k.params.at(op.root);
      const std::string name = p.name.empty() ? "param" + std::to_string(op.root) : p.name;
      return "buffer '" + name + "' (parameter " + std::to_string(op.root) + ", binding " +
             std::to_string(p.binding) + ", " + ir::to_string(p.type) + " elements)";
    }
    case ir::Space::Workgroup: return "shared variable '" + k.shared.at(op.root).name + "'";
    default: return "local variable";
  }
}

}  // namespace

void report_bad_access(Context& c, const Instr& in, const MemoryOp& op, std::uint32_t lane, std::uint64_t offset,
                       std::uint64_t bytes, std::uint64_t size, AccessKind kind) {
  report_problem(c, Problem::OutOfBounds, in.node, lane, [&]() -> std::string {
    std::string what = std::string("out of bounds ") + access_name(kind) + ": ";
    if (offset & poison_bit) {
      const Instr& access = c.program->code.at(offset & 0xffffffffu);
      const ir::Node& base = *access.node->operands.at(0);
      std::int64_t index = std::int64_t((offset >> 32) & 0x7fffffffu);
      if (access.node->operands.at(1)->type->is_signed_int() && index >= 0x40000000) index -= 0x80000000;
      return what + "index " + std::to_string(index) + " into " + ir::to_string(base.type) + " (valid: 0.." +
             std::to_string(access.aux - 1) + ") of " + root_name(c, op);
    }
    if (op.space == ir::Space::StorageBuffer) {
      const ir::Param& p = c.program->kernel->params.at(op.root);
      std::uint64_t stride = ir::array_stride(p.type, ir::LayoutRule::Std430);
      return what + "element " + std::to_string(offset / stride) + " of " + root_name(c, op) + ", which has " +
             std::to_string(size / stride) + " elements";
    }
    return what + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) + " of " + root_name(c, op) +
           " (" + std::to_string(size) + " bytes)";
  });
}

}  // namespace sprig::sim
