#include "sprig/runtime/bind_args.hpp"

namespace sprig::detail {

void launch_error(const Launch& l, std::size_t param, const std::string& what) {
  // Launch arguments follow the kernel's parameters one for one.
  const std::vector<ir::Param>& params = l.kernel->params;
  const std::string name = param < params.size() ? params[param].name : std::string();
  const std::string label = name.empty() ? "launch argument " + std::to_string(param)
                                         : "parameter '" + name + "' (launch argument " + std::to_string(param) + ")";
  throw DeviceError(launch_message(l, label + ": " + what));
}

void bind_buffer(Launch& l, const ir::Param& p, std::size_t index, const RawBuffer& buffer) {
  if (!buffer) launch_error(l, index, "the buffer is empty (default-constructed or moved from)");
  if (buffer.element_type() != p.type)
    launch_error(l, index,
                 "expects a buffer of " + ir::to_string(p.type) + " but got one of " +
                     (buffer.element_type() ? ir::to_string(buffer.element_type()) : std::string("bytes")));
  l.bindings[p.binding] = buffer;
}

Launch begin_launch(std::shared_ptr<const ir::Kernel> kernel, const Grid& g, const DeviceInfo& device) {
  Launch l;
  l.kernel = std::move(kernel);
  l.loc = g.loc;
  const ir::Kernel& k = *l.kernel;
  l.workgroups = workgroups_for(g, k.workgroup_size, device.max_workgroup_count);
  l.invocations = g.invocations;
  l.push_constants.resize(k.push_constant_size);
  std::size_t bindings = 0;
  for (const ir::Param& p : k.params)
    if (p.kind != ir::ParamKind::Scalar) ++bindings;
  l.bindings.resize(bindings);
  return l;
}

}  // namespace sprig::detail
