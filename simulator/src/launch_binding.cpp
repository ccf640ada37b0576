#include "launch_binding.hpp"

#include <algorithm>

#include "sim_buffer.hpp"
#include "sprig/dsl/error.hpp"
#include "sprig/dsl/layout.hpp"

namespace sprig::sim {

namespace {

[[noreturn]] void fail(const Launch& launch, const std::string& message) {
  throw DeviceError(launch_message(launch, message));
}

std::uint32_t shared_bytes(const ir::Kernel& k) {
  std::uint32_t bytes = 0;
  for (const ir::SharedVariable& v : k.shared) {
    ir::Layout l = ir::layout_of(v.type, ir::LayoutRule::Std430);
    bytes = (bytes + l.alignment - 1) / l.alignment * l.alignment + l.size;
  }
  return bytes;
}

}  // namespace

std::uint32_t subgroup_width(const ir::Kernel& kernel, const DeviceInfo& device) {
  std::uint32_t required = kernel.features.required_subgroup_size;
  return required ? required : device.subgroup_size;
}

void check_launch(const Launch& launch, const DeviceInfo& device, std::uint64_t device_id) {
  if (!launch.kernel) fail(launch, "a launch without a kernel");
  const ir::Kernel& k = *launch.kernel;
  std::size_t bindings = 0;
  for (const ir::Param& p : k.params)
    if (p.kind != ir::ParamKind::Scalar) bindings = std::max<std::size_t>(bindings, p.binding + std::size_t(1));
  if (launch.bindings.size() != bindings)
    fail(launch, "expects " + std::to_string(bindings) + " binding(s), but the launch passes " +
                     std::to_string(launch.bindings.size()));
  if (launch.push_constants.size() != k.push_constant_size)
    fail(launch, "expects " + std::to_string(k.push_constant_size) +
                     " bytes of scalar parameters, but the launch passes " +
                     std::to_string(launch.push_constants.size()));
  std::uint64_t invocations = std::uint64_t(k.workgroup_size[0]) * k.workgroup_size[1] * k.workgroup_size[2];
  if (invocations == 0 || invocations > device.max_workgroup_invocations)
    fail(launch, "has " + std::to_string(invocations) + " invocations per workgroup; the device allows 1.." +
                     std::to_string(device.max_workgroup_invocations));
  for (int i = 0; i < 3; ++i) {
    if (k.workgroup_size[i] > device.max_workgroup_size[i])
      fail(launch, "has a workgroup size of " + std::to_string(k.workgroup_size[i]) + " in dimension " +
                       std::to_string(i) + ", more than the device's " + std::to_string(device.max_workgroup_size[i]));
    if (launch.workgroups[i] > device.max_workgroup_count[i])
      fail(launch, "launches " + std::to_string(launch.workgroups[i]) + " workgroups in dimension " +
                       std::to_string(i) + ", more than the device's " + std::to_string(device.max_workgroup_count[i]));
  }
  std::uint32_t width = subgroup_width(k, device);
  if (width < device.min_subgroup_size || width > device.max_subgroup_size || (width & (width - 1)) != 0)
    fail(launch, "requires subgroup size " + std::to_string(width) + "; the simulator runs " +
                     std::to_string(device.min_subgroup_size) + " to " + std::to_string(device.max_subgroup_size) +
                     ", powers of two");
  if (shared_bytes(k) > device.max_shared_memory)
    fail(launch, "uses " + std::to_string(shared_bytes(k)) + " bytes of shared memory, above the device's " +
                     std::to_string(device.max_shared_memory));
  for (const ir::Param& p : k.params) {
    if (p.kind == ir::ParamKind::StorageBuffer) {
      const auto* b = std::get_if<RawBuffer>(&launch.bindings[p.binding]);
      if (!b) fail(launch, binding_label(p) + " is a storage buffer, but the launch passes uniform bytes");
      try {
        sim_buffer(*b, device_id, binding_label(p));
      } catch (const DeviceError& e) {
        fail(launch, e.what());
      }
      if (b->bytes() > device.max_buffer_bytes)
        fail(launch, binding_label(p) + " is bound to a buffer of " + std::to_string(b->bytes()) +
                         " bytes, more than the device's " + std::to_string(device.max_buffer_bytes));
      if (b->element_type() && b->element_type() != p.type)
        fail(launch, binding_label(p) + " has elements of type " + ir::to_string(p.type) +
                         ", but is bound to a buffer of " + ir::to_string(b->element_type()));
    } else if (p.kind == ir::ParamKind::Uniform) {
      const auto* bytes = std::get_if<std::vector<std::byte>>(&launch.bindings[p.binding]);
      if (!bytes) fail(launch, binding_label(p) + " is a uniform, but the launch passes a buffer");
      std::size_t needed = ir::layout_of(p.type, ir::LayoutRule::Std140).size;
      if (bytes->size() < needed)
        fail(launch, binding_label(p) + " needs " + std::to_string(needed) + " bytes (std140), but the launch passes " +
                         std::to_string(bytes->size()));
    }
  }
}

void bind_launch(const Launch& launch, std::uint64_t device_id, LaunchState& state) {
  const ir::Kernel& k = *launch.kernel;
  state.kernel = &k;
  state.workgroups = launch.workgroups;
  state.push_constants = launch.push_constants;
  state.buffers.assign(k.params.size(), BoundBuffer{});
  state.uniforms.assign(k.params.size(), {});
  for (std::size_t i = 0; i < k.params.size(); ++i) {
    const ir::Param& p = k.params[i];
    if (p.kind == ir::ParamKind::StorageBuffer) {
      const RawBuffer& b = std::get<RawBuffer>(launch.bindings[p.binding]);
      SimBuffer& s = sim_buffer(b, device_id, binding_label(p));
      state.buffers[i] = BoundBuffer{s.data(), std::min<std::uint64_t>(b.bytes(), s.size()), p.coherent, s.owners(),
                                     s.first_word(), s.owner_id()};
    } else if (p.kind == ir::ParamKind::Uniform) {
      state.uniforms[i] = std::get<std::vector<std::byte>>(launch.bindings[p.binding]);
    }
  }
}

}  // namespace sprig::sim
