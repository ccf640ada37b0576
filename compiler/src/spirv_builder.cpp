#include "spirv_builder.hpp"

#include <cstring>

namespace sprig::compiler {

void append_instruction(Words& out, spv::Op op, std::initializer_list<std::uint32_t> operands,
                        std::span<const std::uint32_t> tail) {
  std::uint32_t count = std::uint32_t(1 + operands.size() + tail.size());
  out.push_back(count << spv::WordCountShift | static_cast<std::uint32_t>(op));
  out.insert(out.end(), operands.begin(), operands.end());
  out.insert(out.end(), tail.begin(), tail.end());
}

Words literal_string(std::string_view text) {
  // Strings end with a nul byte; words are filled little-end first (SPIR-V spec 2.2.1).
  Words words(text.size() / 4 + 1, 0);
  std::memcpy(words.data(), text.data(), text.size());
  return words;
}

void ModuleBuilder::capability(spv::Capability c) {
  if (capabilities_.insert(c).second) add(Section::Capabilities, spv::Op::OpCapability, {std::uint32_t(c)});
}

Id ModuleBuilder::glsl_std_450() {
  if (!glsl_) {
    glsl_ = fresh_id();
    add(Section::ExtInstImports, spv::Op::OpExtInstImport, {glsl_}, literal_string("GLSL.std.450"));
  }
  return glsl_;
}

Id ModuleBuilder::type(spv::Op op, std::initializer_list<std::uint32_t> operands, std::span<const std::uint32_t> tail) {
  Words key;
  key.reserve(1 + operands.size() + tail.size());
  key.push_back(std::uint32_t(op));
  key.insert(key.end(), operands.begin(), operands.end());
  key.insert(key.end(), tail.begin(), tail.end());
  auto [it, inserted] = types_.try_emplace(std::move(key), 0);
  if (inserted) {
    it->second = fresh_id();
    Words all(operands);
    all.insert(all.end(), tail.begin(), tail.end());
    add(Section::Globals, op, {it->second}, all);
  }
  return it->second;
}

Id ModuleBuilder::distinct_type(spv::Op op, std::span<const std::uint32_t> operands) {
  Id id = fresh_id();
  add(Section::Globals, op, {id}, operands);
  return id;
}

Id ModuleBuilder::constant(spv::Op op, Id type, std::span<const std::uint32_t> operands) {
  Words key{std::uint32_t(op), type};
  key.insert(key.end(), operands.begin(), operands.end());
  auto [it, inserted] = constants_.try_emplace(std::move(key), 0);
  if (inserted) {
    it->second = fresh_id();
    add(Section::Globals, op, {type, it->second}, operands);
  }
  return it->second;
}

Words ModuleBuilder::finish() const {
  std::size_t total = 5;
  for (const Words& s : sections_) total += s.size();
  Words out;
  out.reserve(total);
  // Generator 0: a tool without a registered vendor id (SPIR-V spec 2.3).
  out.insert(out.end(), {spv::MagicNumber, 0x00010500u, 0u, next_id_, 0u});
  for (const Words& s : sections_) out.insert(out.end(), s.begin(), s.end());
  return out;
}

}  // namespace sprig::compiler
