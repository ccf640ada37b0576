// Parameter names: given with the kernel's options, checked when the kernel is traced,
// shown by the IR printer, and left out of the semantic hash.
#include <catch2/catch.hpp>

#include "sprig/dsl.hpp"
#include "sprig/dsl/printer.hpp"

using namespace sprig;
using Catch::Contains;

namespace {

auto saxpy_body() {
  return [](Float a, ReadBuffer<float> x, Buffer<float> y) {
    UInt i = global_id().x();
    if_(i < x.size(), [&] { y[i] = a * x[i] + y[i]; });
  };
}

}  // namespace

TEST_CASE("named parameters carry their names into the IR; unnamed ones are param<N>") {
  auto named = kernel("saxpy", saxpy_body(), workgroup(64).names("a", "x", "y"));
  REQUIRE(named.ir()->params.size() == 3);
  CHECK(named.ir()->params[0].name == "a");
  CHECK(named.ir()->params[1].name == "x");
  CHECK(named.ir()->params[2].name == "y");
  auto unnamed = kernel("saxpy", saxpy_body(), workgroup(64));
  CHECK(unnamed.ir()->params[0].name == "param0");
  CHECK(unnamed.ir()->params[2].name == "param2");
}

TEST_CASE("names can be given as a designated KernelOptions field") {
  auto k = kernel("saxpy", saxpy_body(), {.workgroup_size = {64, 1, 1}, .param_names = {"a", "x", "y"}});
  CHECK(k.ir()->params[1].name == "x");
  CHECK(k.ir()->workgroup_size[0] == 64);
}

TEST_CASE("the printed IR shows each parameter's name after its index") {
  auto k = kernel("printed", saxpy_body(), workgroup(256).names("a", "x", "y"));
  std::string text = ir::print(*k.ir());
  CHECK_THAT(text, Contains("param0 \"a\": push constant float @0"));
  CHECK_THAT(text, Contains("param1 \"x\": storage buffer float binding 0 read"));
  CHECK_THAT(text, Contains("param2 \"y\": storage buffer float binding 1 read-write"));
}

TEST_CASE("names are not semantics: they leave the semantic hash alone") {
  auto unnamed = kernel("saxpy", saxpy_body(), workgroup(64));
  auto named = kernel("saxpy", saxpy_body(), workgroup(64).names("a", "x", "y"));
  auto renamed = kernel("saxpy", saxpy_body(), workgroup(64).names("alpha", "xs", "ys"));
  CHECK(named.hash() == unnamed.hash());
  CHECK(renamed.hash() == unnamed.hash());
}

TEST_CASE("a wrong number of names is an error naming the kernel and its line") {
  const std::string line = std::to_string(__LINE__ + 1);
  auto trace = [] { return kernel("saxpy", saxpy_body(), workgroup(64).names("x", "y")); };
  CHECK_THROWS_WITH(trace(), Contains("kernel 'saxpy'") && Contains("param_names_test.cpp:" + line) &&
                                 Contains("2 parameter name(s) for 3 parameter(s)"));
  CHECK_THROWS_WITH(kernel("saxpy", saxpy_body(), workgroup(64).names("a", "x", "y", "z")),
                    Contains("4 parameter name(s) for 3 parameter(s)"));
}

TEST_CASE("a name given twice or an empty name is an error naming the kernel") {
  CHECK_THROWS_WITH(kernel("saxpy", saxpy_body(), workgroup(64).names("a", "x", "a")),
                    Contains("kernel 'saxpy'") && Contains("parameters 0 and 2 are both named 'a'"));
  CHECK_THROWS_WITH(kernel("saxpy", saxpy_body(), workgroup(64).names("a", "", "y")),
                    Contains("kernel 'saxpy'") && Contains("the name of parameter 1 is empty"));
}

namespace param_names_test {
struct Unpadded {
  float exposure;
  vec3 direction;
};
SPRIG_STRUCT(Unpadded, exposure, direction)
}  // namespace param_names_test

TEST_CASE("a parameter's layout error names the parameter") {
  using param_names_test::Unpadded;
  CHECK_THROWS_WITH(kernel("shade", [](Uniform<Unpadded> u, WriteBuffer<float> out) { out[0] = u[&Unpadded::exposure]; },
                           workgroup(1).names("light", "out")),
                    Contains("kernel 'shade'") && Contains("parameter 0 ('light'): host and device layouts differ"));
}
