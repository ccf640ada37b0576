// Source-level debug info: the NonSemantic.Shader.DebugInfo.100 instruction set, which
// shader debuggers (RenderDoc, Nsight Graphics) read to show the user's C++ beside the
// code. This file declares the sources (with each file's text, read at emit time), the
// compilation unit, a DebugFunction per function and the DebugScope / DebugLine that tie
// each instruction to a function, a line and a column; variables are in
// emit_debug_variables.cpp, types in emit_debug_types.cpp.
//
// The set is non-semantic (SPV_KHR_non_semantic_info, an extension in SPIR-V 1.5): drivers
// may ignore it, and nothing here changes what the code computes. With
// CompileOptions::source_debug_info off, no member here allocates an id or adds a word.
#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "emitter.hpp"

namespace sprig::compiler {

namespace {

// A literal string operand may fill an instruction of at most 65535 words, of which the
// opcode and result id take two; one byte goes to the terminating nul.
constexpr std::size_t kStringBytes = (65535 - 2) * 4 - 1;

// The file's text, or nothing where it cannot be read (a relative path from another working
// directory, a file since removed): the debugger then shows the code without the source.
std::optional<std::string> read_source_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  // A nul byte would end the literal string early.
  std::erase(text, '\0');
  return text;
}

// The length of the next piece of `text` from `from`: at most kStringBytes, cut before a
// UTF-8 continuation byte so that each piece is valid UTF-8 on its own.
std::size_t piece_length(const std::string& text, std::size_t from) {
  std::size_t length = std::min(kStringBytes, text.size() - from);
  if (from + length == text.size()) return length;
  std::size_t cut = length;
  while (cut > 0 && (static_cast<unsigned char>(text[from + cut]) & 0xC0) == 0x80) --cut;
  return cut > 0 ? cut : length;
}

}  // namespace

void Emitter::begin_source_debug() {
  if (!source_debug_) return;
  // Core in SPIR-V 1.6; the module is 1.5, so the extension is declared.
  m_.add(ModuleBuilder::Section::Extensions, spv::Op::OpExtension, {}, literal_string("SPV_KHR_non_semantic_info"));
  sd_.set = m_.fresh_id();
  m_.add(ModuleBuilder::Section::ExtInstImports, spv::Op::OpExtInstImport, {sd_.set},
         literal_string("NonSemantic.Shader.DebugInfo.100"));
  sd_.expression = debug_global(NonSemanticShaderDebugInfo100DebugExpression, {});
  Id source = sd_.unit_source = debug_source(kernel_.loc.known() ? kernel_.loc.file : "");
  // DWARF version 5; C++ has no SPIR-V source language, so the language is Unknown, as in
  // OpSource.
  sd_.compilation_unit = debug_global(NonSemanticShaderDebugInfo100DebugCompilationUnit,
                                      {u32(NonSemanticShaderDebugInfo100Version), u32(5), source,
                                       u32(std::uint32_t(spv::SourceLanguage::Unknown))});
}

Id Emitter::debug_global(std::uint32_t instruction, std::initializer_list<Id> operands, std::span<const Id> tail) {
  Id result_type = void_type();
  Id id = m_.fresh_id();
  Words all{result_type, id, sd_.set, instruction};
  all.insert(all.end(), operands.begin(), operands.end());
  all.insert(all.end(), tail.begin(), tail.end());
  m_.add(ModuleBuilder::Section::Globals, spv::Op::OpExtInst, {}, all);
  return id;
}

void Emitter::debug_local(std::uint32_t instruction, std::initializer_list<Id> operands) {
  Id result_type = void_type();
  Words all{result_type, m_.fresh_id(), sd_.set, instruction};
  all.insert(all.end(), operands.begin(), operands.end());
  append_instruction(f_.body, spv::Op::OpExtInst, {}, all);
}

Id Emitter::debug_string(const std::string& text) {
  auto [it, inserted] = sd_.strings.try_emplace(text, 0);
  if (inserted) {
    it->second = m_.fresh_id();
    m_.add(ModuleBuilder::Section::DebugStrings, spv::Op::OpString, {it->second}, literal_string(text));
  }
  return it->second;
}

Id Emitter::debug_source(const char* path) {
  std::string key = path ? path : "";
  if (auto it = sd_.sources.find(key); it != sd_.sources.end()) return it->second;
  // A kernel built without locations still needs a source for its compilation unit.
  Id file = key.empty() ? debug_string("<kernel " + kernel_.name + ">")
             : debug_   ? file_string(path)
                        : debug_string(key);
  std::optional<std::string> text = key.empty() ? std::nullopt : read_source_text(path);
  Id source = 0;
  if (!text) {
    source = debug_global(NonSemanticShaderDebugInfo100DebugSource, {file});
  } else {
    // The text as one string, or as pieces continued by DebugSourceContinued right after.
    std::size_t first = piece_length(*text, 0);
    Id first_piece = debug_string(text->substr(0, first));
    source = debug_global(NonSemanticShaderDebugInfo100DebugSource, {file, first_piece});
    for (std::size_t from = first; from < text->size();) {
      std::size_t length = piece_length(*text, from);
      debug_global(NonSemanticShaderDebugInfo100DebugSourceContinued, {debug_string(text->substr(from, length))});
      from += length;
    }
  }
  sd_.sources.emplace(std::move(key), source);
  return source;
}

Id Emitter::debug_function(const std::string& function_name, const SourceLoc& loc, Id result_type,
                           std::span<const Id> params, std::uint32_t flags) {
  Id type = debug_global(NonSemanticShaderDebugInfo100DebugTypeFunction,
                         {u32(NonSemanticShaderDebugInfo100None), result_type}, params);
  SourceLoc where = loc.known() ? loc : kernel_.loc;
  Id source = debug_source(where.known() ? where.file : "");
  Id name_id = debug_string(function_name);
  return debug_global(NonSemanticShaderDebugInfo100DebugFunction,
                      {name_id, type, source, u32(where.line), u32(where.column), sd_.compilation_unit, name_id,
                       u32(NonSemanticShaderDebugInfo100FlagIsDefinition | flags), u32(where.line)});
}

void Emitter::open_debug_function(const ir::Function& f, Id function, bool is_entry) {
  if (!source_debug_) return;
  Words params;
  for (ir::TypeRef t : f.param_types) params.push_back(debug_type(t));
  Id result = is_entry || !f.result ? void_type() : debug_type(f.result);
  SourceLoc loc = f.loc.known() ? f.loc : kernel_.loc;
  f_.debug_scope = debug_function(is_entry ? kernel_.name : f.name, loc, result, params);
  if (is_entry) {
    // Names the tool and leaves the command line empty: there is none.
    debug_global(NonSemanticShaderDebugInfo100DebugEntryPoint,
                 {f_.debug_scope, sd_.compilation_unit, debug_string("sprig"), debug_string("")});
  }
  // The entry block's variables come first; the function's scope and definition follow them.
  debug_scope();
  debug_local(NonSemanticShaderDebugInfo100DebugFunctionDefinition, {f_.debug_scope, function});
  for (std::size_t i = 0; i < f.vars.size(); ++i) {
    const ir::Variable& v = f.vars[i];
    // A variable the user did not name still shows, under its index.
    bool named = !v.name.empty();
    Id local = debug_local_variable(named ? v.name : "var" + std::to_string(i), v.type, v.loc, f_.debug_scope,
                                    NonSemanticShaderDebugInfo100FlagIsLocal |
                                        (named ? 0u : std::uint32_t(NonSemanticShaderDebugInfo100FlagArtificial)));
    debug_local(NonSemanticShaderDebugInfo100DebugDeclare, {local, f_.vars[i], sd_.expression});
  }
  for (std::size_t i = 0; i < f_.params.size(); ++i) {
    Id local = debug_local_variable("arg" + std::to_string(i), f.param_types[i], loc, f_.debug_scope,
                                    NonSemanticShaderDebugInfo100FlagIsLocal, std::uint32_t(i + 1));
    debug_local(NonSemanticShaderDebugInfo100DebugValue, {local, f_.params[i], sd_.expression});
  }
}

void Emitter::open_debug_helper(const std::string& helper_name, Id function, ir::TypeRef value_type, unsigned arity) {
  if (!source_debug_) return;
  Id value = debug_type(value_type);
  Words params(arity, value);
  f_.debug_scope =
      debug_function(helper_name, kernel_.loc, value, params, NonSemanticShaderDebugInfo100FlagArtificial);
  debug_scope();
  debug_local(NonSemanticShaderDebugInfo100DebugFunctionDefinition, {f_.debug_scope, function});
}

void Emitter::debug_scope() {
  if (!source_debug_ || !f_.debug_scope) return;
  debug_local(NonSemanticShaderDebugInfo100DebugScope, {f_.debug_scope});
}

void Emitter::debug_line(Id source, std::uint32_t line, std::uint32_t column) {
  // Only the terminator may follow a merge instruction; it keeps the merge's line.
  if (f_.after_merge) return;
  if (source == f_.debug_line_source && line == f_.debug_line && column == f_.debug_column) return;
  f_.debug_line_source = source;
  f_.debug_line = line;
  f_.debug_column = column;
  // A call site has one position, so a line's start and end are the same.
  debug_local(NonSemanticShaderDebugInfo100DebugLine, {source, u32(line), u32(line), u32(column), u32(column)});
}

}  // namespace sprig::compiler
