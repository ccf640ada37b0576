// The SPIRV-Tools services: validation messages, the optimiser's output (still valid,
// never larger for a simple map) and disassembly.
#include "spirv_checks.hpp"

using namespace sprig;

namespace {

auto saxpy() {
  return kernel("saxpy", [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  }, workgroup(256));
}

}  // namespace

TEST_CASE("validation_errors explains what is wrong with a module") {
  std::vector<std::uint32_t> words = compiler::emit(*saxpy().ir());
  words.resize(words.size() - 1);  // drop OpFunctionEnd
  CHECK_FALSE(compiler::validation_errors(words).empty());
}

TEST_CASE("optimize keeps the module valid and the kernel's interface") {
  std::vector<std::uint32_t> optimized = compiler::optimize(compiler::emit(*saxpy().ir()));
  CHECK(compiler::validation_errors(optimized) == "");
  std::string text = compiler::disassemble(optimized);
  CHECK(text.find("OpEntryPoint GLCompute") != std::string::npos);
  CHECK(text.find("LocalSize 256 1 1") != std::string::npos);
}

namespace spirv_tools_test {

struct Body {
  vec4 position;
  std::uint32_t hits;
  float mass;
};
SPRIG_STRUCT(Body, position, hits, mass)

}  // namespace spirv_tools_test

TEST_CASE("the optimiser accepts struct copies, callables, loops, atomics and subgroup operations") {
  using spirv_tools_test::Body;
  auto step = callable("step", [](Expr<Body> b, Float dt) -> Expr<Body> {
    Var<Body> next = b;
    next[&Body::position] = b[&Body::position] * dt;
    next[&Body::hits] += 1u;
    return next.load();
  });
  auto k = kernel("mixed", [&](Buffer<Body> bodies, Buffer<std::uint32_t> counter, Float dt, UInt steps) {
    UInt i = global_id().x();
    Var<Body> b = bodies[i];
    for_(0u, steps, [&](UInt) { b = step(b, dt); });
    bodies[i] = b;
    atomic_add(counter[0], subgroup_add(1u));
  });
  std::vector<std::uint32_t> optimized = compiler::optimize(test::valid_module(k).words);
  CHECK(compiler::validation_errors(optimized) == "");
}

TEST_CASE("compile with options validates, optimises and can drop debug info") {
  compiler::CompileOptions options;
  options.optimize = true;
  options.debug_info = false;
  std::vector<std::uint32_t> words = compiler::compile(*saxpy().ir(), options);
  CHECK(compiler::validation_errors(words) == "");
  CHECK(compiler::disassemble(words).find("OpName") == std::string::npos);
}

TEST_CASE("disassembly of a kernel uses friendly names") {
  std::string text = compiler::disassemble(*saxpy().ir());
  CHECK(text.find("%saxpy = OpFunction %void None") != std::string::npos);
  CHECK(text.find("OpArrayLength %uint %param1 0") != std::string::npos);
}

TEST_CASE("disassembling words that are no module throws") {
  std::vector<std::uint32_t> garbage{1, 2, 3};
  CHECK_THROWS_AS(compiler::disassemble(garbage), compiler::CompileError);
}
