#include "spirv_checks.hpp"

namespace sprig::test {

namespace {

// Calls `visit(opcode, operands)` for every instruction after the header.
template <class F>
void for_each_instruction(const std::vector<std::uint32_t>& words, F&& visit) {
  for (std::size_t i = 5; i < words.size();) {
    std::uint32_t count = words[i] >> spv::WordCountShift;
    if (count == 0) break;
    visit(spv::Op(words[i] & spv::OpCodeMask),
          std::vector<std::uint32_t>(words.begin() + std::ptrdiff_t(i + 1), words.begin() + std::ptrdiff_t(i + count)));
    i += count;
  }
}

}  // namespace

bool Module::has_capability(spv::Capability c) const {
  for (const auto& operands : instructions(spv::Op::OpCapability))
    if (operands.at(0) == std::uint32_t(c)) return true;
  return false;
}

std::size_t Module::count(spv::Op op) const { return instructions(op).size(); }

std::vector<std::vector<std::uint32_t>> Module::instructions(spv::Op op) const {
  std::vector<std::vector<std::uint32_t>> out;
  for_each_instruction(words, [&](spv::Op o, std::vector<std::uint32_t> operands) {
    if (o == op) out.push_back(std::move(operands));
  });
  return out;
}

Module valid_module(const ir::Kernel& k, bool debug_info) {
  Module m;
  m.words = compiler::emit(k, debug_info);
  m.text = compiler::disassemble(m.words);
  std::string errors = compiler::validation_errors(m.words);
  INFO("kernel '" << k.name << "':\n" << m.text);
  REQUIRE(errors == "");
  return m;
}

}  // namespace sprig::test
