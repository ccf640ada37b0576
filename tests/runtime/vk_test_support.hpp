// Helpers for the Vulkan backend tests: hand-built kernels whose SPIR-V comes from the
// GLSL shaders in shaders/, byte-level buffer helpers and a shared device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "sprig/dsl/ir.hpp"
#include "sprig/runtime/vulkan.hpp"

namespace sprig::test {

// The SPIR-V of the test shader named like the kernel (kernel.name up to an optional
// '#', so "add_one#2" is another kernel with add_one's code).
std::vector<std::uint32_t> test_spirv(const ir::Kernel& kernel);

// Options that take SPIR-V from test_spirv; validation follows SPRIG_VALIDATION.
vk::Options test_options();

// One device for the tests that need no special options (opening one costs ~0.1 s).
vk::Device& shared_device();

ir::Param storage_param(std::string name, std::uint32_t binding, ir::Access used,
                        ir::TypeRef element = ir::scalar_type(ir::ScalarKind::U32));
ir::Param uniform_param(std::string name, std::uint32_t binding, ir::TypeRef type = nullptr);

// A kernel description. `hash` 0 derives one from the name, so equal names share pipelines.
std::shared_ptr<ir::Kernel> make_kernel(std::string name, std::vector<ir::Param> params,
                                        std::uint32_t push_constant_size = 0, std::uint64_t hash = 0,
                                        std::source_location loc = std::source_location::current());

// The standard test kernels.
std::shared_ptr<ir::Kernel> add_one_kernel(std::string name = "add_one");  // (src, dst), push: n
std::shared_ptr<ir::Kernel> scale_offset_kernel();  // (x, y, uniform offset), push: n, factor

template <class... T>
std::vector<std::byte> bytes_of(T... values) {
  std::vector<std::byte> out;
  (..., [&] {
    auto old = out.size();
    out.resize(old + sizeof(T));
    std::memcpy(out.data() + old, &values, sizeof(T));
  }());
  return out;
}

RawBuffer upload_u32(vk::Device& device, const std::vector<std::uint32_t>& values,
                     MemoryKind memory = MemoryKind::DeviceLocal);
std::vector<std::uint32_t> download_u32(vk::Device& device, const RawBuffer& buffer);

// One launch of `kernel` with `bindings` (by binding number) and push-constant bytes.
Launch make_launch(std::shared_ptr<ir::Kernel> kernel, std::uint32_t workgroups, std::vector<BindingArg> bindings,
                   std::vector<std::byte> push_constants = {},
                   std::source_location loc = std::source_location::current());

// add_one over n elements: dst = src + 1.
Launch add_one_launch(const std::shared_ptr<ir::Kernel>& kernel, const RawBuffer& src, const RawBuffer& dst,
                      std::uint32_t n, std::source_location loc = std::source_location::current());

// Values 0, 1, ... n-1 plus `base`.
std::vector<std::uint32_t> iota_u32(std::size_t n, std::uint32_t base = 0);

}  // namespace sprig::test
