#include "vk_pipeline.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <span>
#include <type_traits>
#include <vector>

#include "sprig/compiler/compile.hpp"
#include "sprig/dsl/error.hpp"
#include "vk_context.hpp"
#include "vk_feature_check.hpp"
#include "vk_pipeline_statistics.hpp"
#include "vk_result.hpp"
#include "sprig_emitter_build_id.hpp"

namespace sprig::vk {

namespace {

constexpr std::uint32_t kSpirvMagic = 0x07230203;

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

[[noreturn]] void fail(const ir::Kernel& kernel, const std::string& message) {
  throw DeviceError(describe(message, kernel.name, kernel.loc));
}

void check_vk(VkResult result, const ir::Kernel& kernel, const char* call) {
  if (result != VK_SUCCESS) fail(kernel, std::string(call) + " failed: " + result_name(result));
}

// The emitter's share of the device's driver workarounds, the float controls that
// precise-float kernels declare where the device has them, and the debug info asked for.
compiler::CompileOptions compile_options(const DeviceContext& context) {
  const DeviceInfo& info = context.info();
  const DeviceCapabilities& caps = context.caps();
  compiler::CompileOptions options;
  options.source_debug_info = context.diagnostics().source_debug_info;
  options.signed_remainder_by_division = info.quirks.has(Quirk::SignedRemainderUnsigned);
  options.sign_extension_by_shifts = info.quirks.has(Quirk::SignExtendedCompareWithConstant);
  options.exact_int_to_float = info.quirks.has(Quirk::IntFloatIntFolded);
  options.bit_serial_64_bit_division = info.quirks.has(Quirk::BallotBeside64BitDivisionCrash);
  options.arithmetic_shift_by_logical_shifts = info.quirks.has(Quirk::ShiftOfKnownNegativeMiscompared);
  options.float32_denorm_preserve = caps.float32_denorm_preserve;
  options.float32_signed_zero_inf_nan_preserve = caps.float32_signed_zero_inf_nan_preserve;
  options.float32_rounding_mode_rte = caps.float32_rounding_mode_rte;
  return options;
}

std::vector<std::uint32_t> emit_spirv(const Options& options, const ir::Kernel& kernel,
                                      const compiler::CompileOptions& compile) {
  std::vector<std::uint32_t> words;
  try {
    words = options.spirv_compiler ? options.spirv_compiler(kernel) : compiler::compile(kernel, compile);
  } catch (const Error&) {
    throw;  // already says what failed and where
  } catch (const std::exception& e) {
    fail(kernel, std::string("producing SPIR-V failed: ") + e.what());
  }
  if (words.size() < 5 || words[0] != kSpirvMagic) fail(kernel, "the SPIR-V compiler returned no valid module");
  return words;
}

// The disk cache's key for a kernel's SPIR-V: the emitter's build, the kernel's semantics and
// every option that changes the module.
std::uint64_t spirv_key(const ir::Kernel& kernel, const compiler::CompileOptions& options) {
  static_assert(std::has_unique_object_representations_v<compiler::CompileOptions>,
                "the key hashes CompileOptions' bytes: it must have no padding");
  std::uint64_t key = hash_bytes(std::as_bytes(std::span(kEmitterBuildId)));
  key = hash_value(kernel.hash, key);
  return hash_value(options, key);
}

std::string spirv_file_name(std::uint64_t key) {
  char name[40];
  std::snprintf(name, sizeof name, "spirv/%016llx.spv", static_cast<unsigned long long>(key));
  return name;
}

// SPIR-V from the disk cache when it holds this kernel's module, else emitted (and stored).
std::vector<std::uint32_t> obtain_spirv(const DeviceContext& context, const ir::Kernel& kernel, const DiskCache* disk,
                                        KernelTimes& times) {
  compiler::CompileOptions options = compile_options(context);
  // A substituted compiler's output is its own business, and an unhashed kernel has no key;
  // source-level debug info holds the source files' text, which the key does not cover.
  bool cacheable =
      disk != nullptr && !context.options().spirv_compiler && kernel.hash != 0 && !options.source_debug_info;
  std::uint64_t key = cacheable ? spirv_key(kernel, options) : 0;
  if (cacheable) {
    if (std::optional<std::vector<std::byte>> bytes = disk->load(spirv_file_name(key), key)) {
      std::vector<std::uint32_t> words(bytes->size() / 4);
      if (!words.empty()) std::memcpy(words.data(), bytes->data(), words.size() * 4);
      if (bytes->size() % 4 == 0 && words.size() >= 5 && words[0] == kSpirvMagic) {
        times.spirv_from_disk = true;
        return words;
      }
      context.warn("ignoring cache file " + (disk->path() / spirv_file_name(key)).string() + ": not a SPIR-V module");
    }
  }
  std::vector<std::uint32_t> words = emit_spirv(context.options(), kernel, options);
  if (cacheable) disk->store(spirv_file_name(key), key, std::as_bytes(std::span(words)));
  return words;
}

std::vector<VkDescriptorSetLayoutBinding> descriptor_bindings(const ir::Kernel& kernel, const DeviceCapabilities& caps,
                                                              Pipeline& pipeline) {
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::set<std::uint32_t> seen;
  for (const ir::Param& param : kernel.params) {
    if (param.kind == ir::ParamKind::Scalar) continue;
    if (!seen.insert(param.binding).second) {
      fail(kernel, "parameters share binding " + std::to_string(param.binding) + " (second: '" + param.name + "')");
    }
    VkDescriptorSetLayoutBinding binding{};
    binding.binding = param.binding;
    binding.descriptorCount = 1;
    binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    if (param.kind == ir::ParamKind::StorageBuffer) {
      binding.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      ++pipeline.storage_buffers;
    } else {
      binding.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      ++pipeline.uniform_buffers;
    }
    bindings.push_back(binding);
  }
  if (!kernel.prints.empty()) {
    // device_print's buffer (emit_print.cpp), after the parameters'.
    bindings.push_back({ir::print_binding(kernel), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                        nullptr});
    ++pipeline.storage_buffers;
  }
  if (pipeline.storage_buffers > caps.max_per_stage_storage_buffers) {
    fail(kernel, "has " + std::to_string(pipeline.storage_buffers) + " buffer parameters" +
                     (kernel.prints.empty() ? "" : " (device_print's buffer included)") + "; the device allows " +
                     std::to_string(caps.max_per_stage_storage_buffers));
  }
  if (pipeline.uniform_buffers > caps.max_per_stage_uniform_buffers) {
    fail(kernel, "has " + std::to_string(pipeline.uniform_buffers) + " uniform parameters; the device allows " +
                     std::to_string(caps.max_per_stage_uniform_buffers));
  }
  return bindings;
}

void create_layouts(DeviceContext& context, const ir::Kernel& kernel, Pipeline& pipeline) {
  const DeviceCapabilities& caps = context.caps();
  std::vector<VkDescriptorSetLayoutBinding> bindings = descriptor_bindings(kernel, caps, pipeline);
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = static_cast<std::uint32_t>(bindings.size());
  set_info.pBindings = bindings.data();
  check_vk(context.vk().vkCreateDescriptorSetLayout(context.device(), &set_info, nullptr, &pipeline.set_layout), kernel,
           "vkCreateDescriptorSetLayout");

  pipeline.push_constant_bytes = (kernel.push_constant_size + 3) / 4 * 4;  // Vulkan counts in words
  if (pipeline.push_constant_bytes > caps.max_push_constants_size) {
    fail(kernel, "has " + std::to_string(kernel.push_constant_size) + " bytes of scalar parameters; the device's " +
                     "push-constant limit is " + std::to_string(caps.max_push_constants_size) + " bytes");
  }
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pipeline.push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &pipeline.set_layout;
  layout_info.pushConstantRangeCount = pipeline.push_constant_bytes > 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &range;
  check_vk(context.vk().vkCreatePipelineLayout(context.device(), &layout_info, nullptr, &pipeline.layout), kernel,
           "vkCreatePipelineLayout");
}

void create_pipeline(DeviceContext& context, const ir::Kernel& kernel, const std::vector<std::uint32_t>& words,
                     DriverPipelineCache& driver_cache, Pipeline& pipeline) {
  const VolkDeviceTable& vk = context.vk();
  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = words.size() * sizeof(std::uint32_t);
  module_info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  check_vk(vk.vkCreateShaderModule(context.device(), &module_info, nullptr, &module), kernel, "vkCreateShaderModule");

  VkPipelineShaderStageCreateInfo stage{};
  stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  stage.module = module;
  stage.pName = "main";
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_size{};
  subgroup_size.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
  std::uint32_t required = kernel.features.required_subgroup_size;
  // Without size control the feature check only lets the default size through, which
  // SPIR-V 1.5 modules get anyway.
  if (required != 0 && context.caps().subgroup_size_control != SubgroupSizeControl::Unsupported) {
    subgroup_size.requiredSubgroupSize = required;
    stage.pNext = &subgroup_size;
    if (context.caps().compute_full_subgroups && kernel.workgroup_size[0] % required == 0) {
      stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
  }

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  if (context.diagnostics().pipeline_statistics) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  info.stage = stage;
  info.layout = pipeline.layout;
  VkResult result =
      vk.vkCreateComputePipelines(context.device(), driver_cache.handle(), 1, &info, nullptr, &pipeline.pipeline);
  vk.vkDestroyShaderModule(context.device(), module, nullptr);
  check_vk(result, kernel, "vkCreateComputePipelines");
  driver_cache.pipeline_created();
  context.name_object(VK_OBJECT_TYPE_PIPELINE, reinterpret_cast<std::uint64_t>(pipeline.pipeline), kernel.name);
}

}  // namespace

Pipeline::~Pipeline() {
  if (pipeline != VK_NULL_HANDLE) vk.vkDestroyPipeline(device, pipeline, nullptr);
  if (layout != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(device, layout, nullptr);
  if (set_layout != VK_NULL_HANDLE) vk.vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
}

std::shared_ptr<const Pipeline> build_pipeline(DeviceContext& context, const ir::Kernel& kernel,
                                               DriverPipelineCache& driver_cache, const DiskCache* disk) {
  check_kernel_supported(kernel, context.info(), context.caps().max_compute_workgroup_subgroups);
  auto pipeline = std::make_shared<Pipeline>(context.device(), context.vk());
  pipeline->times.kernel = kernel.name;
  pipeline->times.hash = kernel.hash;
  create_layouts(context, kernel, *pipeline);

  auto start = std::chrono::steady_clock::now();
  std::vector<std::uint32_t> words = obtain_spirv(context, kernel, disk, pipeline->times);
  pipeline->times.emit_ms = elapsed_ms(start);

  start = std::chrono::steady_clock::now();
  create_pipeline(context, kernel, words, driver_cache, *pipeline);
  pipeline->times.pipeline_ms = elapsed_ms(start);
  const Diagnostics& diagnostics = context.diagnostics();
  pipeline->times.statistics = diagnostics.pipeline_statistics
                                   ? read_pipeline_statistics(context.device(), context.vk(), pipeline->pipeline)
                                   : unavailable_statistics(diagnostics.statistics_unavailable);
  return pipeline;
}

}  // namespace sprig::vk
