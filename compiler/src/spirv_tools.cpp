// The SPIRV-Tools services: spirv-val, spirv-opt's performance passes and the
// disassembler, all for the Vulkan 1.2 environment the runtime targets.
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "sprig/compiler/compile.hpp"

namespace sprig::compiler {

namespace {

constexpr spv_target_env environment = SPV_ENV_VULKAN_1_2;

// Collects the tools' messages, one per line.
auto collect_into(std::string& messages) {
  return [&messages](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
    if (!messages.empty()) messages += '\n';
    messages += message;
    if (position.index) messages += " (word " + std::to_string(position.index) + ")";
  };
}

}  // namespace

std::string validation_errors(std::span<const std::uint32_t> words) {
  spvtools::SpirvTools tools(environment);
  std::string messages;
  tools.SetMessageConsumer(collect_into(messages));
  if (tools.Validate(words.data(), words.size())) return {};
  return messages.empty() ? std::string("invalid module") : messages;
}

std::vector<std::uint32_t> optimize(std::span<const std::uint32_t> words) {
  spvtools::Optimizer optimizer(environment);
  std::string messages;
  optimizer.SetMessageConsumer(collect_into(messages));
  optimizer.RegisterPerformancePasses();
  std::vector<std::uint32_t> out;
  if (!optimizer.Run(words.data(), words.size(), &out)) throw CompileError("spirv-opt failed: " + messages);
  return out;
}

std::string disassemble(std::span<const std::uint32_t> words) {
  spvtools::SpirvTools tools(environment);
  std::string messages, text;
  tools.SetMessageConsumer(collect_into(messages));
  std::uint32_t options = SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT;
  if (!tools.Disassemble(words.data(), words.size(), &text, options))
    throw CompileError("disassembly failed: " + messages);
  return text;
}

}  // namespace sprig::compiler
