// Kernel parameters: declaration at trace time and the nodes that read them.
#include "sprig/dsl/kernel.hpp"

#include "sprig/dsl/layout.hpp"

namespace sprig::detail {

namespace {

// Vulkan guarantees at least this many bytes of push constants (maxPushConstantsSize).
constexpr std::uint32_t guaranteed_push_constant_bytes = 128;

std::uint32_t round_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::vector<std::string> param_names(const std::string& kernel, const std::vector<std::string>& given,
                                     std::size_t count, const SourceLoc& loc) {
  if (given.empty()) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < count; ++i) names.push_back("param" + std::to_string(i));
    return names;
  }
  if (given.size() != count)
    throw TraceError(std::to_string(given.size()) + " parameter name(s) for " + std::to_string(count) +
                         " parameter(s): name every parameter, in order, or none",
                     loc, kernel);
  for (std::size_t i = 0; i < count; ++i) {
    if (given[i].empty()) throw TraceError("the name of parameter " + std::to_string(i) + " is empty", loc, kernel);
    for (std::size_t j = 0; j < i; ++j)
      if (given[j] == given[i])
        throw TraceError("parameters " + std::to_string(j) + " and " + std::to_string(i) + " are both named '" +
                             given[i] + "'",
                         loc, kernel);
  }
  return given;
}

void add_param(ir::Kernel& k, ir::ParamKind kind, ir::TypeRef type, Access access, const ParamSlot& slot,
               const SourceLoc& loc) {
  ir::Param p;
  p.kind = kind;
  p.type = type;
  p.access = access;
  p.name = slot.name;
  if (kind == ir::ParamKind::Scalar) {
    ir::Layout l = ir::layout_of(type, ir::LayoutRule::Std430);
    p.push_offset = round_up(k.push_constant_size, l.alignment);
    k.push_constant_size = p.push_offset + l.size;
    if (k.push_constant_size > guaranteed_push_constant_bytes)
      throw TraceError("kernel '" + k.name + "': value parameters take " + std::to_string(k.push_constant_size) +
                           " bytes of push constants, more than the 128 every device offers; pass large "
                           "values in a Uniform<S>",
                       loc);
  } else {
    std::uint32_t binding = 0;
    for (const ir::Param& q : k.params)
      if (q.kind != ir::ParamKind::Scalar) ++binding;
    p.binding = binding;
  }
  k.params.push_back(std::move(p));
}

void check_param_layout(const ir::Kernel& k, const ParamSlot& slot, const std::string& problem, const SourceLoc& loc) {
  if (!problem.empty())
    throw TraceError("parameter " + std::to_string(slot.index) + " ('" + slot.name +
                         "'): host and device layouts differ: " + problem,
                     loc, k.name);
}

ir::NodeRef param_value(std::uint32_t param, ir::TypeRef type, const SourceLoc& loc) {
  return ir::Builder::current(loc).pure(ir::Op::Param, type, {}, loc, param);
}

ir::NodeRef buffer_root(std::uint32_t param, ir::TypeRef element, const SourceLoc& loc) {
  return ir::Builder::current(loc).pure(ir::Op::BufferRoot, element, {}, loc, param, 0, {}, ir::Space::StorageBuffer);
}

ir::NodeRef buffer_length(std::uint32_t param, const SourceLoc& loc) {
  return ir::Builder::current(loc).pure(ir::Op::ArrayLength, ir::scalar_type(ir::ScalarKind::U32), {}, loc, param);
}

}  // namespace sprig::detail
