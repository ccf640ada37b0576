// Source-level debug info as emitted: NonSemantic.Shader.DebugInfo.100 with this file's
// text, a DebugLine per source position (line and column of the DSL call), the kernel's and
// callables' DebugFunctions, local variables by the names the kernel gave them, spirv-val
// clean; and without it the module is word for word what it was.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>
#include <spirv/unified1/spirv.hpp11>
#include <utility>

#include "debug_module.hpp"
#include "sprig/compiler/compile.hpp"
#include "sprig/dsl.hpp"

using namespace sprig;
using test::DebugModule;

namespace {

struct Particle {
  vec2 position;
  float mass;
  std::uint32_t id;
};
SPRIG_STRUCT(Particle, position, mass, id)

compiler::CompileOptions with_source_debug_info(bool debug_info = true) {
  compiler::CompileOptions options;
  options.source_debug_info = true;
  options.debug_info = debug_info;
  return options;
}

// Emits with source-level debug info and requires spirv-val to accept the module.
DebugModule valid_debug_module(const ir::Kernel& k,
                               const compiler::CompileOptions& options = with_source_debug_info()) {
  std::vector<std::uint32_t> words = compiler::emit(k, options);
  std::string errors = compiler::validation_errors(words);
  INFO("kernel '" << k.name << "':\n" << compiler::disassemble(words));
  REQUIRE(errors == "");
  return DebugModule(std::move(words));
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Every (line, column) of the module's DebugLines.
std::set<std::pair<std::uint32_t, std::uint32_t>> debug_lines(const DebugModule& m) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const test::DebugInstruction& d : m.all(NonSemanticShaderDebugInfo100DebugLine)) {
    CHECK(m.constant(d.operands[1]) == m.constant(d.operands[2]));  // a position, not a range
    CHECK(m.constant(d.operands[3]) == m.constant(d.operands[4]));
    out.insert({m.constant(d.operands[1]), m.constant(d.operands[3])});
  }
  return out;
}

// The location of the first node of `op` in the kernel's entry function.
SourceLoc location_of(const ir::Kernel& k, ir::Op op) {
  for (const auto& n : k.entry.nodes)
    if (n->op == op) return n->loc;
  FAIL("no node of that op");
  return {};
}

}  // namespace

TEST_CASE("the debug source holds this file's text, and every line lies inside the kernel") {
  const std::uint32_t first_line = __LINE__ + 1;
  auto k = kernel("sources", [](UInt a, WriteBuffer<std::uint32_t> out) {
    UInt product = a * 3u;
    out[0] = product;
  });
  const std::uint32_t last_line = __LINE__ - 1;
  DebugModule m = valid_debug_module(*k.ir());
  std::vector<test::DebugInstruction> sources = m.all(NonSemanticShaderDebugInfo100DebugSource);
  REQUIRE(sources.size() == 1);
  CHECK(m.string(sources[0].operands[0]) == __FILE__);
  CHECK(m.source_text(sources[0]) == test::read_file(__FILE__));

  std::vector<test::DebugInstruction> units = m.all(NonSemanticShaderDebugInfo100DebugCompilationUnit);
  REQUIRE(units.size() == 1);
  CHECK(units[0].operands[2] == sources[0].id);
  CHECK(m.constant(units[0].operands[0]) == 100);

  auto lines = debug_lines(m);
  REQUIRE_FALSE(lines.empty());
  for (auto [line, column] : lines) {
    CHECK(line >= first_line);
    CHECK(line <= last_line);
    CHECK(column > 0);
  }
}

TEST_CASE("DebugLine gives each instruction the line and column of the DSL call that produced it") {
  const std::uint32_t first_line = __LINE__ + 1;
  auto k = kernel("positions", [](UInt a, WriteBuffer<std::uint32_t> out) {
    UInt product = a * 3u;
    UInt sum = product + a;
    out[0] = sum;
  });
  DebugModule m = valid_debug_module(*k.ir());
  auto lines = debug_lines(m);
  SourceLoc mul = location_of(*k.ir(), ir::Op::Mul), add = location_of(*k.ir(), ir::Op::Add);
  CHECK(mul.line == first_line + 1);
  CHECK(add.line == first_line + 2);
  CHECK(lines.count({mul.line, mul.column}) == 1);
  CHECK(lines.count({add.line, add.column}) == 1);
  CHECK(mul.column != add.column);  // the columns tell the operators apart, not just the lines

  // The same positions as OpLine's: debug info of both kinds agrees.
  std::set<std::pair<std::uint32_t, std::uint32_t>> op_lines;
  const auto& w = m.words();
  for (std::size_t i = 5; i < w.size(); i += w[i] >> spv::WordCountShift)
    if (spv::Op(w[i] & spv::OpCodeMask) == spv::Op::OpLine) op_lines.insert({w[i + 2], w[i + 3]});
  CHECK(op_lines == lines);
}

TEST_CASE("functions, local variables, named values and the kernel's interface carry their names") {
  const std::uint32_t callable_line = __LINE__ + 1;
  auto twice = callable("twice", [](UInt v) -> UInt { return v * 2u; });
  auto k = kernel(
      "named_things",
      [&](UInt count, ReadBuffer<Particle> particles, WriteBuffer<float> out) {
        UInt i = global_id().x();
        Var<UInt> total = twice(count);
        total.named("total");
        Var<float> unnamed = particles[i][&Particle::mass];
        Float weight = (unnamed * 2.0f).named("weight");
        auto tile = shared_array<float>(64, "tile");
        tile[local_index()] = weight;
        for_(0u, count, [&](UInt j) { total += j; });
        out[i] = weight + cast<float>(total);
      },
      workgroup(64).names("count", "particles", "out"));
  DebugModule m = valid_debug_module(*k.ir());

  std::vector<std::string> functions = m.names(NonSemanticShaderDebugInfo100DebugFunction);
  CHECK(contains(functions, "named_things"));
  CHECK(contains(functions, "twice"));
  for (const test::DebugInstruction& f : m.all(NonSemanticShaderDebugInfo100DebugFunction)) {
    if (m.string(f.operands[0]) == "twice") CHECK(m.constant(f.operands[3]) == callable_line);
  }
  CHECK(m.all(NonSemanticShaderDebugInfo100DebugFunctionDefinition).size() == functions.size());
  CHECK(m.all(NonSemanticShaderDebugInfo100DebugEntryPoint).size() == 1);

  std::vector<std::string> locals = m.names(NonSemanticShaderDebugInfo100DebugLocalVariable);
  CHECK(contains(locals, "total"));
  CHECK(contains(locals, "weight"));
  CHECK(contains(locals, "var1"));  // the unnamed Var, by its index
  CHECK(contains(locals, "arg0"));  // the callable's parameter
  CHECK(m.all(NonSemanticShaderDebugInfo100DebugDeclare).size() == k.ir()->entry.vars.size());
  CHECK(m.all(NonSemanticShaderDebugInfo100DebugValue).size() >= 2);  // weight, arg0

  std::vector<std::string> globals = m.names(NonSemanticShaderDebugInfo100DebugGlobalVariable);
  CHECK(contains(globals, "push_constants"));
  CHECK(contains(globals, "particles"));
  CHECK(contains(globals, "out"));
  CHECK(contains(globals, "tile"));

  std::vector<std::string> composites = m.names(NonSemanticShaderDebugInfo100DebugTypeComposite);
  CHECK(contains(composites, "Particle"));
  CHECK(contains(m.names(NonSemanticShaderDebugInfo100DebugTypeMember), "mass"));
  CHECK(contains(m.names(NonSemanticShaderDebugInfo100DebugTypeMember), "count"));
  CHECK(contains(m.names(NonSemanticShaderDebugInfo100DebugTypeBasic), "float"));
  CHECK_FALSE(m.all(NonSemanticShaderDebugInfo100DebugTypeVector).empty());  // Particle::position
  CHECK_FALSE(m.all(NonSemanticShaderDebugInfo100DebugTypeArray).empty());   // tile, the buffers
}

TEST_CASE("emitter helpers get artificial functions, and every block a scope") {
  auto k = kernel(
      "helpers", [](Float a, WriteBuffer<float> out) { out[0] = sqrt(a) / (a + 1.0f); }, workgroup(1).precise());
  DebugModule m = valid_debug_module(*k.ir());
  std::size_t artificial = 0;
  for (const test::DebugInstruction& f : m.all(NonSemanticShaderDebugInfo100DebugFunction))
    if (m.constant(f.operands[7]) & NonSemanticShaderDebugInfo100FlagArtificial) ++artificial;
  CHECK(artificial >= 2);  // precise division and square root
  // OpLabel count == DebugScope count: each block opens with its function's scope.
  std::size_t labels = 0;
  const auto& w = m.words();
  for (std::size_t i = 5; i < w.size(); i += w[i] >> spv::WordCountShift)
    if (spv::Op(w[i] & spv::OpCodeMask) == spv::Op::OpLabel) ++labels;
  CHECK(m.all(NonSemanticShaderDebugInfo100DebugScope).size() == labels);
}

TEST_CASE("source-level debug info without OpLine and OpName is valid too") {
  auto k = kernel("alone", [](UInt a, WriteBuffer<std::uint32_t> out) {
    Var<UInt> v = a;
    v.named("v");
    if_(a > 2u, [&] { v += 1u; });
    out[0] = v;
  });
  DebugModule m = valid_debug_module(*k.ir(), with_source_debug_info(false));
  CHECK(contains(m.names(NonSemanticShaderDebugInfo100DebugLocalVariable), "v"));
  CHECK_FALSE(m.all(NonSemanticShaderDebugInfo100DebugLine).empty());
}

TEST_CASE("without source-level debug info the module is the same words as before") {
  auto k = kernel("unchanged", [](UInt a, WriteBuffer<std::uint32_t> out) {
    Var<UInt> v = a;
    v.named("v");
    UInt w = (a * 5u).named("w");
    for_(0u, a, [&](UInt i) { v += i * w; });
    out[0] = v;
  });
  for (bool debug_info : {true, false}) {
    compiler::CompileOptions off;
    off.debug_info = debug_info;
    std::vector<std::uint32_t> words = compiler::emit(*k.ir(), off);
    CHECK(words == compiler::emit(*k.ir(), debug_info));
    CHECK_FALSE(DebugModule(words).has_debug_info());
    CHECK(compiler::validation_errors(words) == "");
  }
  // Turning it on adds debug instructions and constants and changes no code.
  DebugModule on(compiler::emit(*k.ir(), with_source_debug_info()));
  test::DebugModule off(compiler::emit(*k.ir(), true));
  auto code_opcodes = [](const std::vector<std::uint32_t>& w) {
    std::multiset<std::uint32_t> ops;
    for (std::size_t i = 5; i < w.size(); i += w[i] >> spv::WordCountShift) {
      spv::Op op = spv::Op(w[i] & spv::OpCodeMask);
      bool debug_only = op == spv::Op::OpExtInst || op == spv::Op::OpString || op == spv::Op::OpConstant ||
                        op == spv::Op::OpExtension || op == spv::Op::OpExtInstImport || op == spv::Op::OpSource;
      if (!debug_only) ops.insert(std::uint32_t(op));
    }
    return ops;
  };
  CHECK(code_opcodes(on.words()) == code_opcodes(off.words()));
  CHECK(k.ir()->hash != 0);  // the semantic hash is the tracer's and no option changes it
}

TEST_CASE("a source file that cannot be read leaves the text out, and a long one is split") {
  auto emit_with_source = [](const std::string& path) {
    ir::Kernel k;
    k.name = "hand_built";
    k.workgroup_size = {1, 1, 1};
    k.loc.file = path.c_str();
    k.loc.line = 1;
    k.loc.column = 1;
    k.entry.blocks.push_back(std::make_unique<ir::Block>());
    k.entry.body = k.entry.blocks.back().get();
    k.entry.vars.push_back(ir::Variable{ir::scalar_type(ir::ScalarKind::U32), "counter", k.loc});
    return valid_debug_module(k);
  };

  DebugModule missing = emit_with_source("/nonexistent/sprig/kernel.cpp");
  std::vector<test::DebugInstruction> sources = missing.all(NonSemanticShaderDebugInfo100DebugSource);
  REQUIRE(sources.size() == 1);
  CHECK(sources[0].operands.size() == 1);  // the file name, no text
  CHECK(missing.string(sources[0].operands[0]) == "/nonexistent/sprig/kernel.cpp");
  CHECK(contains(missing.names(NonSemanticShaderDebugInfo100DebugLocalVariable), "counter"));

  // Longer than one instruction can hold (65535 words), with multi-byte UTF-8 throughout.
  std::filesystem::path path = std::filesystem::temp_directory_path() / "sprig_debuginfo_long_source.cpp";
  std::string text;
  for (int i = 0; text.size() < 700'000; ++i) {
    text += "// line " + std::to_string(i) + ": \xC3\xA9t\xC3\xA9 \xE2\x82\xAC\n";
  }
  std::ofstream(path, std::ios::binary) << text;
  DebugModule long_source = emit_with_source(path.string());
  std::filesystem::remove(path);
  sources = long_source.all(NonSemanticShaderDebugInfo100DebugSource);
  REQUIRE(sources.size() == 1);
  CHECK(long_source.all(NonSemanticShaderDebugInfo100DebugSourceContinued).size() >= 2);
  CHECK(long_source.source_text(sources[0]) == text);
}
