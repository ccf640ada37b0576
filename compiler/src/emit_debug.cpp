// Debug info: OpString for each source file, OpSource naming it, OpName / OpMemberName for
// the names the user gave, and OpLine before instructions, from each node's SourceLoc.
// Everything here is skipped when debug info is off, so it never changes semantics.
#include <cstring>

#include "emitter.hpp"

namespace sprig::compiler {

void Emitter::name(Id id, const std::string& text) {
  if (!debug_ || text.empty()) return;
  m_.add(ModuleBuilder::Section::DebugNames, spv::Op::OpName, {id}, literal_string(text));
}

void Emitter::member_name(Id id, std::uint32_t member, const std::string& text) {
  if (!debug_ || text.empty()) return;
  m_.add(ModuleBuilder::Section::DebugNames, spv::Op::OpMemberName, {id, member}, literal_string(text));
}

// Every layout's twin of a struct gets the same names: Mesa's SPIR-V front-end builds its
// struct types from OpName/OpMemberName, and twins named differently fail its type checks
// across OpCopyLogical ("Type mismatch for SPIR-V SSA value").
void Emitter::name_struct(Id id, ir::TypeRef t) {
  if (!debug_) return;
  name(id, t->name);
  for (std::uint32_t i = 0; i < t->fields.size(); ++i) member_name(id, i, t->fields[i].name);
}

Id Emitter::file_string(const char* path) {
  auto [it, inserted] = files_.try_emplace(path, 0);
  if (inserted) {
    it->second = m_.fresh_id();
    m_.add(ModuleBuilder::Section::DebugStrings, spv::Op::OpString, {it->second}, literal_string(path));
    // With source-level debug info the file's DebugSource says it all: debuggers list each
    // OpSource as a file of its own, which would show this one twice, once without its text.
    if (!source_debug_) {
      m_.add(ModuleBuilder::Section::DebugStrings, spv::Op::OpSource,
             {std::uint32_t(spv::SourceLanguage::Unknown), 0, it->second});
    }
  }
  return it->second;
}

// Emits an OpLine (and with source-level debug info a DebugLine) for the pending location if
// it differs from the one in effect. Called before every instruction of a block, so the
// lines follow the instructions that need them and constants or values without code cost none.
void Emitter::source_line() {
  if ((!debug_ && !source_debug_) || !f_.open || !f_.pending.known() || !f_.pending.file || !*f_.pending.file) return;
  if (source_debug_) debug_line(debug_source(f_.pending.file), f_.pending.line, f_.pending.column);
  if (!debug_) return;
  Id file = file_string(f_.pending.file);
  if (file == f_.line_file && f_.pending.line == f_.line && f_.pending.column == f_.column) return;
  f_.line_file = file;
  f_.line = f_.pending.line;
  f_.column = f_.pending.column;
  append_instruction(f_.body, spv::Op::OpLine, {file, f_.line, f_.column});
}

}  // namespace sprig::compiler
