// Callables are real SPIR-V functions: one OpFunction each, called with OpFunctionCall as
// often as the kernel calls them, with parameters, results and early returns.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

TEST_CASE("a callable is one function called many times") {
  auto mix32 = callable("mix32", [](UInt a, UInt b) -> UInt { return rotate_left(a ^ b, 7u) * 9u; });
  auto k = kernel("calls", [&](UInt x, WriteBuffer<std::uint32_t> out) {
    out[0] = mix32(x, 1u) + mix32(mix32(x, 2u), 3u);
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpFunction) == 2);
  CHECK(m.count(spv::Op::OpFunctionCall) == 3);
  CHECK(m.text.find("%mix32 = OpFunction %uint None") != std::string::npos);
}

TEST_CASE("callables with early returns, loops, vectors and void results") {
  auto clamp_sum = callable("clamp_sum", [](UInt n, UInt limit) -> UInt {
    Var<UInt> sum;
    for_(0u, n, [&](UInt i) {
      sum += i;
      if_(sum > limit, [&] { return_(limit); });
    });
    return sum;
  });
  auto scale = callable("scale", [](Vec4 v, Float s) -> Vec4 { return v * s; });
  auto k = kernel("rich_calls", [&](UInt n, WriteBuffer<std::uint32_t> out, WriteBuffer<vec4> vs) {
    out[0] = clamp_sum(n, 100u);
    vs[0] = scale(Vec4(vec4{1, 2, 3, 4}), 0.5f);
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpReturnValue) == 3);  // clamp_sum's early and final returns, scale's
}

TEST_CASE("callables calling callables, and callables writing buffers the kernel lends") {
  auto square = callable("square", [](Int v) -> Int { return v * v; });
  auto sum_squares = callable("sum_squares", [&](Int a, Int b) -> Int { return square(a) + square(b); });
  auto k = kernel("call_chain", [&](Int a, WriteBuffer<std::int32_t> out) {
    auto store = callable("store", [&](UInt i, Int v) { out[i] = v; });
    store(0u, sum_squares(a, 3));
    store(1u, square(a));
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpFunction) == 4);
}
