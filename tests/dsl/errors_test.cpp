// Misuse found while tracing is a TraceError that names the kernel and the user's line.
#include <catch2/catch.hpp>

#include "sprig/dsl.hpp"

using namespace sprig;
using Catch::Contains;

TEST_CASE("a body that records nothing (native return) is an error naming its line") {
  auto trace = [] {
    return kernel("early", [](WriteBuffer<std::uint32_t> out) {
      UInt i = global_id().x();
      if_(i < 4u, [&] {
        return;  // a native return ends tracing of this body
        out[i] = 1u;
      });
    });
  };
  CHECK_THROWS_WITH(trace(), Contains("kernel 'early'") && Contains("errors_test.cpp:13") && Contains("records nothing"));
}

TEST_CASE("a kernel whose body records nothing is an error") {
  CHECK_THROWS_WITH(kernel("empty", [](WriteBuffer<std::uint32_t>) {}), Contains("records nothing"));
}

TEST_CASE("a value computed in a branch cannot be used after it") {
  auto trace = [] {
    return kernel("escape", [](WriteBuffer<std::uint32_t> out) {
      UInt i = global_id().x();
      UInt v = i;
      if_(i < 4u, [&] { v = i * 2u; out[0] = v; });
      out[i] = v;
    });
  };
  CHECK_THROWS_WITH(trace(), Contains("used outside that body") && Contains("Var<T>"));
}

TEST_CASE("break_ and continue_ outside a loop are errors") {
  CHECK_THROWS_WITH(kernel("brk", [](WriteBuffer<std::uint32_t> out) { out[0] = 1u; break_(); }),
                    Contains("break_() outside a device loop"));
  CHECK_THROWS_WITH(kernel("cont", [](WriteBuffer<std::uint32_t> out) { out[0] = 1u; continue_(); }),
                    Contains("continue_() outside a device loop"));
}

TEST_CASE("DSL calls outside a kernel are errors") {
  CHECK_THROWS_WITH(global_id(), Contains("only valid inside a kernel"));
}

TEST_CASE("a literal that does not fit its operand's type is an error") {
  CHECK_THROWS_WITH(kernel("fit", [](WriteBuffer<std::uint32_t> out) { out[0] = global_id().x() + (-1); }),
                    Contains("literal -1 does not fit"));
}

TEST_CASE("a literal that does not fit the device value it initialises is an error at its line") {
  const int line = __LINE__ + 1;
  auto trace = [] { return kernel("init", [](WriteBuffer<std::uint32_t> out) { UInt x = -1; out[0] = x; }); };
  CHECK_THROWS_WITH(trace(), Contains("literal -1 does not fit") && Contains(":" + std::to_string(line)));
  CHECK_THROWS_WITH(kernel("init64", [](WriteBuffer<std::int32_t> out) { Int x = 3000000000u; out[0] = x; }),
                    Contains("literal 3000000000 does not fit"));
}

TEST_CASE("else_ must follow its if_ directly") {
  auto trace = [] {
    return kernel("late_else", [](WriteBuffer<std::uint32_t> out) {
      UInt i = global_id().x();
      IfChain chain = if_(i < 4u, [&] { out[i] = 1u; });
      out[i] = 2u;
      chain.else_([&] { out[i] = 3u; });
    });
  };
  CHECK_THROWS_WITH(trace(), Contains("must directly follow its if_"));
}

TEST_CASE("a callable that calls itself is an error") {
  struct Holder {
    std::function<Expr<std::uint32_t>(Expr<std::uint32_t>)> f;
  };
  auto holder = std::make_shared<Holder>();
  auto self = callable("self", [holder](UInt x) -> UInt { return holder->f(x); });
  holder->f = [self](UInt x) { return self(x); };
  CHECK_THROWS_WITH(kernel("recursion", [&](WriteBuffer<std::uint32_t> out) { out[0] = self(1u); }),
                    Contains("recursion"));
  holder->f = nullptr;  // the holder and the callable own each other: break the cycle
}

TEST_CASE("too many value parameters for push constants is an error") {
  CHECK_THROWS_WITH(kernel("push", [](Vec4, Vec4, Vec4, Vec4, Vec4, Vec4, Vec4, Vec4, Float, WriteBuffer<float> o) {
                      o[0] = 1.0f;
                    }),
                    Contains("more than the 128"));
}
