#include "debug_module.hpp"

#include <fstream>
#include <iterator>
#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>
#include <spirv/unified1/spirv.hpp11>
#include <stdexcept>

namespace sprig::test {

namespace {

std::string literal(const std::uint32_t* words, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    for (int b = 0; b < 4; ++b) {
      char c = char((words[i] >> (8 * b)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  }
  return text;
}

}  // namespace

DebugModule::DebugModule(std::vector<std::uint32_t> words) : words_(std::move(words)) {
  for (std::size_t i = 5; i < words_.size();) {
    std::uint32_t count = words_[i] >> spv::WordCountShift;
    if (count == 0 || i + count > words_.size()) throw std::runtime_error("malformed module");
    spv::Op op = spv::Op(words_[i] & spv::OpCodeMask);
    const std::uint32_t* w = &words_[i + 1];
    if (op == spv::Op::OpExtInstImport && literal(w + 1, count - 2) == "NonSemantic.Shader.DebugInfo.100") set_ = w[0];
    if (op == spv::Op::OpString) strings_[w[0]] = literal(w + 1, count - 2);
    if (op == spv::Op::OpConstant && count == 4) constants_[w[1]] = w[2];
    if (op == spv::Op::OpExtInst && set_ != 0 && w[2] == set_) {
      debug_.push_back({w[3], w[1], std::vector<std::uint32_t>(w + 4, w + count - 1)});
    }
    i += count;
  }
}

std::vector<DebugInstruction> DebugModule::all(std::uint32_t instruction) const {
  std::vector<DebugInstruction> out;
  for (const DebugInstruction& d : debug_)
    if (d.instruction == instruction) out.push_back(d);
  return out;
}

const DebugInstruction* DebugModule::by_id(std::uint32_t id) const {
  for (const DebugInstruction& d : debug_)
    if (d.id == id) return &d;
  return nullptr;
}

const std::string& DebugModule::string(std::uint32_t id) const {
  auto it = strings_.find(id);
  if (it == strings_.end()) throw std::runtime_error("%" + std::to_string(id) + " is no OpString");
  return it->second;
}

std::uint32_t DebugModule::constant(std::uint32_t id) const {
  auto it = constants_.find(id);
  if (it == constants_.end()) throw std::runtime_error("%" + std::to_string(id) + " is no 32-bit OpConstant");
  return it->second;
}

std::string DebugModule::source_text(const DebugInstruction& source) const {
  if (source.operands.size() < 2) return "";
  std::string text = string(source.operands[1]);
  // The pieces that continue it follow it directly.
  bool after = false;
  for (const DebugInstruction& d : debug_) {
    if (after && d.instruction != NonSemanticShaderDebugInfo100DebugSourceContinued) break;
    if (after) text += string(d.operands[0]);
    if (d.id == source.id) after = true;
  }
  return text;
}

std::vector<std::string> DebugModule::names(std::uint32_t instruction) const {
  std::vector<std::string> out;
  for (const DebugInstruction& d : all(instruction)) out.push_back(string(d.operands.at(0)));
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace sprig::test
