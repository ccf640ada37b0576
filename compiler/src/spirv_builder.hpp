// A word-level SPIR-V module builder: id allocation, the logical-layout sections of a
// module (SPIR-V spec 2.4) and deduplication of types and constants. It knows nothing of
// sprig's IR; the emitter (emitter.hpp) drives it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <span>
#include <string_view>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

namespace sprig::compiler {

using Id = std::uint32_t;
using Words = std::vector<std::uint32_t>;

// Appends one instruction: the opcode word, then `operands`, then `tail`.
void append_instruction(Words& out, spv::Op op, std::initializer_list<std::uint32_t> operands,
                        std::span<const std::uint32_t> tail = {});
// A literal string operand: UTF-8 bytes, nul-terminated, padded to whole words.
Words literal_string(std::string_view text);

class ModuleBuilder {
 public:
  // The module's sections in the order SPIR-V requires them.
  enum class Section {
    Capabilities,
    Extensions,
    ExtInstImports,
    MemoryModel,
    EntryPoints,
    ExecutionModes,
    DebugStrings,  // OpString, OpSource
    DebugNames,    // OpName, OpMemberName
    Annotations,   // OpDecorate, OpMemberDecorate
    Globals,       // types, constants, global variables
    Functions,
    Count,
  };

  Id fresh_id() { return next_id_++; }

  void add(Section s, spv::Op op, std::initializer_list<std::uint32_t> operands,
           std::span<const std::uint32_t> tail = {}) {
    append_instruction(section(s), op, operands, tail);
  }
  Words& section(Section s) { return sections_[static_cast<std::size_t>(s)]; }

  // Declared once however often it is asked for.
  void capability(spv::Capability c);
  bool has_capability(spv::Capability c) const { return capabilities_.count(c) != 0; }
  // The GLSL.std.450 extended instruction set, imported on first use.
  Id glsl_std_450();

  // A type whose identity is its opcode and operands (scalars, vectors, pointers, function
  // types, runtime arrays): equal requests return the same id. Aggregates that may carry
  // layout decorations (structs, arrays) must use distinct_type instead.
  Id type(spv::Op op, std::initializer_list<std::uint32_t> operands, std::span<const std::uint32_t> tail = {});
  // A type declared anew on every call.
  Id distinct_type(spv::Op op, std::span<const std::uint32_t> operands);
  // A constant (OpConstant, OpConstantTrue/False, OpConstantComposite, OpConstantNull),
  // deduplicated by opcode, type and operands.
  Id constant(spv::Op op, Id type, std::span<const std::uint32_t> operands);

  // The finished module: header followed by the sections.
  Words finish() const;

 private:
  Id next_id_ = 1;
  Words sections_[static_cast<std::size_t>(Section::Count)];
  std::set<spv::Capability> capabilities_;
  Id glsl_ = 0;
  std::map<Words, Id> types_;      // key: opcode, operands
  std::map<Words, Id> constants_;  // key: opcode, type, operands
};

}  // namespace sprig::compiler
