#include "vk_test_support.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <stdexcept>

#include "add_one.spv.h"
#include "array_length.spv.h"
#include "atomic_add64.spv.h"
#include "busy_loop.spv.h"
#include "scale_offset.spv.h"
#include "subgroup_size.spv.h"

namespace sprig::test {

std::vector<std::uint32_t> test_spirv(const ir::Kernel& kernel) {
  static const std::map<std::string, std::span<const std::uint32_t>> shaders = {
      {"add_one", add_one_spirv},           {"scale_offset", scale_offset_spirv},
      {"busy_loop", busy_loop_spirv},       {"subgroup_size", subgroup_size_spirv},
      {"atomic_add64", atomic_add64_spirv}, {"array_length", array_length_spirv},
  };
  auto found = shaders.find(kernel.name.substr(0, kernel.name.find('#')));
  if (found == shaders.end()) throw std::runtime_error("no test shader for kernel " + kernel.name);
  return {found->second.begin(), found->second.end()};
}

vk::Options test_options() {
  vk::Options options;
  options.spirv_compiler = test_spirv;
  return options;
}

vk::Device& shared_device() {
  static vk::Device device = vk::Device::best(test_options());
  return device;
}

ir::Param storage_param(std::string name, std::uint32_t binding, ir::Access used, ir::TypeRef element) {
  ir::Param param;
  param.kind = ir::ParamKind::StorageBuffer;
  param.type = element;
  param.access = used;
  param.used = static_cast<std::uint8_t>(used);
  param.name = std::move(name);
  param.binding = binding;
  return param;
}

ir::Param uniform_param(std::string name, std::uint32_t binding, ir::TypeRef type) {
  ir::Param param;
  param.kind = ir::ParamKind::Uniform;
  param.type = type;
  param.name = std::move(name);
  param.binding = binding;
  return param;
}

std::shared_ptr<ir::Kernel> make_kernel(std::string name, std::vector<ir::Param> params,
                                        std::uint32_t push_constant_size, std::uint64_t hash,
                                        std::source_location loc) {
  auto kernel = std::make_shared<ir::Kernel>();
  kernel->workgroup_size = {64, 1, 1};
  kernel->params = std::move(params);
  kernel->push_constant_size = push_constant_size;
  kernel->loc = loc;
  kernel->hash = hash != 0 ? hash : std::hash<std::string>{}(name) | 1;
  kernel->name = std::move(name);
  return kernel;
}

std::shared_ptr<ir::Kernel> add_one_kernel(std::string name) {
  return make_kernel(std::move(name), {storage_param("src", 0, ir::Access::Read), storage_param("dst", 1, ir::Access::Write)},
                     4);
}

std::shared_ptr<ir::Kernel> scale_offset_kernel() {
  return make_kernel("scale_offset",
                     {storage_param("x", 0, ir::Access::Read), storage_param("y", 1, ir::Access::Write),
                      uniform_param("constants", 2)},
                     8);
}

RawBuffer upload_u32(vk::Device& device, const std::vector<std::uint32_t>& values, MemoryKind memory) {
  RawBuffer buffer = device.backend().allocate(values.size() * 4, ir::scalar_type(ir::ScalarKind::U32), memory);
  device.backend().write(buffer, 0, std::as_bytes(std::span(values)));
  return buffer;
}

std::vector<std::uint32_t> download_u32(vk::Device& device, const RawBuffer& buffer) {
  std::vector<std::uint32_t> values(buffer.bytes() / 4);
  device.backend().read(buffer, 0, std::as_writable_bytes(std::span(values)));
  return values;
}

Launch make_launch(std::shared_ptr<ir::Kernel> kernel, std::uint32_t workgroups, std::vector<BindingArg> bindings,
                   std::vector<std::byte> push_constants, std::source_location loc) {
  Launch launch;
  launch.kernel = std::move(kernel);
  launch.workgroups = {workgroups, 1, 1};
  launch.bindings = std::move(bindings);
  launch.push_constants = std::move(push_constants);
  launch.loc = loc;
  return launch;
}

Launch add_one_launch(const std::shared_ptr<ir::Kernel>& kernel, const RawBuffer& src, const RawBuffer& dst,
                      std::uint32_t n, std::source_location loc) {
  return make_launch(kernel, (n + 63) / 64, {src, dst}, bytes_of(n), loc);
}

std::vector<std::uint32_t> iota_u32(std::size_t n, std::uint32_t base) {
  std::vector<std::uint32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = base + static_cast<std::uint32_t>(i);
  return values;
}

}  // namespace sprig::test
