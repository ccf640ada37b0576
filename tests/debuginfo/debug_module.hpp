// Reads source-level debug info back from an emitted module: the NonSemantic.Shader.
// DebugInfo.100 instructions in order, with the strings and integer constants their
// operands name, for the tests of tests/debuginfo.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sprig::test {

struct DebugInstruction {
  std::uint32_t instruction = 0;  // NonSemanticShaderDebugInfo100Instructions
  std::uint32_t id = 0;
  std::vector<std::uint32_t> operands;  // after the instruction number
};

class DebugModule {
 public:
  explicit DebugModule(std::vector<std::uint32_t> words);

  const std::vector<std::uint32_t>& words() const { return words_; }
  // Whether the module imports NonSemantic.Shader.DebugInfo.100.
  bool has_debug_info() const { return set_ != 0; }
  // The debug instructions of one kind, in module order.
  std::vector<DebugInstruction> all(std::uint32_t instruction) const;
  const DebugInstruction* by_id(std::uint32_t id) const;
  // The text of an OpString and the value of a 32-bit OpConstant (throw if `id` is neither).
  const std::string& string(std::uint32_t id) const;
  std::uint32_t constant(std::uint32_t id) const;
  // The full text of a DebugSource with its DebugSourceContinued pieces ("" without text).
  std::string source_text(const DebugInstruction& source) const;
  // The names (first operand, an OpString) of every instruction of one kind.
  std::vector<std::string> names(std::uint32_t instruction) const;

 private:
  std::vector<std::uint32_t> words_;
  std::uint32_t set_ = 0;
  std::vector<DebugInstruction> debug_;
  std::map<std::uint32_t, std::string> strings_;
  std::map<std::uint32_t, std::uint32_t> constants_;
};

// The bytes of a file, for comparing with a module's source text.
std::string read_file(const std::string& path);

}  // namespace sprig::test
