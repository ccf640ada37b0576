#include "vk_launch_check.hpp"

#include <algorithm>

#include "sprig/dsl/error.hpp"
#include "sprig/dsl/layout.hpp"
#include "vk_buffer.hpp"
#include "vk_context.hpp"

namespace sprig::vk {

namespace {

[[noreturn]] void fail(const Launch& launch, const std::string& message) {
  throw DeviceError(launch_message(launch, message));
}

// Launch::bindings is indexed by binding number, so its size is the highest binding + 1.
std::size_t expected_bindings(const ir::Kernel& kernel) {
  std::size_t count = 0;
  for (const ir::Param& param : kernel.params) {
    if (param.kind != ir::ParamKind::Scalar) count = std::max<std::size_t>(count, param.binding + std::size_t(1));
  }
  return count;
}

BoundBuffer check_storage_buffer(const Launch& launch, const ir::Param& param, const DeviceContext& context) {
  const auto* buffer = std::get_if<RawBuffer>(&launch.bindings[param.binding]);
  if (buffer == nullptr) fail(launch, binding_label(param) + " is a storage buffer, but the launch passes uniform bytes");
  VulkanBuffer* storage = nullptr;
  try {
    storage = &vulkan_buffer(*buffer, context, binding_label(param));
  } catch (const DeviceError& e) {
    fail(launch, e.what());
  }
  const DeviceInfo& info = context.info();
  if (buffer->bytes() > info.max_buffer_bytes) {
    fail(launch, binding_label(param) + " is bound to a buffer of " + std::to_string(buffer->bytes()) +
                     " bytes, more than the device's maxStorageBufferRange of " + std::to_string(info.max_buffer_bytes));
  }
  if (buffer->element_type() != nullptr && param.type != nullptr && buffer->element_type() != param.type) {
    fail(launch, binding_label(param) + " has elements of type " + ir::to_string(param.type) +
                     ", but is bound to a buffer of " + ir::to_string(buffer->element_type()));
  }
  return {&param, storage, buffer->bytes()};
}

BoundUniform check_uniform(const Launch& launch, const ir::Param& param, const DeviceContext& context) {
  const auto* bytes = std::get_if<std::vector<std::byte>>(&launch.bindings[param.binding]);
  if (bytes == nullptr) fail(launch, binding_label(param) + " is a uniform, but the launch passes a buffer");
  if (bytes->empty()) fail(launch, binding_label(param) + " is a uniform, but the launch passes no bytes");
  if (bytes->size() > context.caps().max_uniform_buffer_range) {
    fail(launch, binding_label(param) + " has " + std::to_string(bytes->size()) +
                     " bytes, more than the device's maxUniformBufferRange of " +
                     std::to_string(context.caps().max_uniform_buffer_range));
  }
  if (param.type != nullptr) {
    std::size_t needed = ir::layout_of(param.type, ir::LayoutRule::Std140).size;
    if (bytes->size() < needed) {
      fail(launch, binding_label(param) + " needs " + std::to_string(needed) + " bytes (std140), but the launch passes " +
                       std::to_string(bytes->size()));
    }
  }
  return {&param, bytes};
}

}  // namespace

CheckedLaunch check_launch(const Launch& launch, const DeviceContext& context) {
  if (!launch.kernel) fail(launch, "a launch without a kernel");
  const ir::Kernel& kernel = *launch.kernel;

  std::size_t expected = expected_bindings(kernel);
  if (launch.bindings.size() != expected) {
    fail(launch, "expects " + std::to_string(expected) + " binding(s) (buffer and uniform parameters by binding " +
                     "number), but the launch passes " + std::to_string(launch.bindings.size()));
  }
  if (launch.push_constants.size() != kernel.push_constant_size) {
    fail(launch, "expects " + std::to_string(kernel.push_constant_size) + " bytes of scalar parameters, but the launch " +
                     "passes " + std::to_string(launch.push_constants.size()));
  }
  const DeviceInfo& info = context.info();
  for (int i = 0; i < 3; ++i) {
    if (launch.workgroups[i] > info.max_workgroup_count[i]) {
      fail(launch, "launches " + std::to_string(launch.workgroups[i]) + " workgroups in dimension " +
                       std::to_string(i) + ", more than the device's " + std::to_string(info.max_workgroup_count[i]));
    }
  }

  CheckedLaunch checked;
  for (const ir::Param& param : kernel.params) {
    if (param.kind == ir::ParamKind::StorageBuffer) checked.buffers.push_back(check_storage_buffer(launch, param, context));
    if (param.kind == ir::ParamKind::Uniform) checked.uniforms.push_back(check_uniform(launch, param, context));
  }
  return checked;
}

}  // namespace sprig::vk
