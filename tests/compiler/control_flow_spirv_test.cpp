// Structured control flow: every shape of if_/loop/break/continue/return, nested, passes
// spirv-val's structured control-flow rules; code after a jump is not emitted.
#include "spirv_checks.hpp"

using namespace sprig;
using test::valid_module;

TEST_CASE("if, else_if and else chains") {
  auto k = kernel("chains", [](Int a, WriteBuffer<std::int32_t> out) {
    if_(a < 0, [&] { out[0] = -1; }).else_if_(a == 0, [&] { out[0] = 0; }).else_([&] { out[0] = 1; });
    if_(a > 5, [&] { out[1] = a; });
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpSelectionMerge) == 3);
}

TEST_CASE("for, while and infinite loops with break and continue") {
  auto k = kernel("loops", [](UInt n, WriteBuffer<std::uint32_t> out) {
    Var<UInt> sum;
    for_(0u, n, [&](UInt i) {
      if_(i % 3u == 0u, [&] { continue_(); });
      if_(i > 100u, [&] { break_(); });
      sum += i;
    });
    Var<UInt> x = n;
    while_([&] { return x > 1u; }, [&] { x = select(x % 2u == 0u, x / 2u, 3u * x + 1u); });
    loop_([&] {
      x += 1u;
      if_(x > 10u, [&] { break_(); });
    });
    out[0] = sum + x;
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpLoopMerge) == 3);
}

TEST_CASE("nested loops: break and continue refer to the innermost loop") {
  auto k = kernel("nested", [](UInt n, WriteBuffer<std::uint32_t> out) {
    Var<UInt> count;
    for_(0u, n, [&](UInt i) {
      for_(0u, i, [&](UInt j) {
        if_(j == 3u, [&] { break_(); });
        if_((i ^ j) == 1u, [&] { continue_(); });
        count += 1u;
      });
      if_(i == 7u, [&] { break_(); });
    });
    out[0] = count;
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpLoopMerge) == 2);
}

TEST_CASE("return from nested constructs ends the invocation") {
  auto k = kernel("early_return", [](UInt n, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i >= n, [&] { return_(); });
    for_(0u, n, [&](UInt j) {
      if_(j == i, [&] {
        out[i] = j;
        return_();
      });
    });
    out[i] = 0u;
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpReturn) == 3);
}

TEST_CASE("an if whose branches both leave has an unreachable merge and no code after it") {
  auto k = kernel("both_return", [](UInt n, WriteBuffer<std::uint32_t> out) {
    if_(n > 1u, [&] {
      out[0] = 1u;
      return_();
    }).else_([&] {
      out[0] = 2u;
      return_();
    });
    out[0] = 3u;  // dead
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpUnreachable) == 1);
  CHECK(m.count(spv::Op::OpStore) == 2);
}

TEST_CASE("a loop left only by return has an unreachable merge") {
  auto k = kernel("spin", [](UInt n, WriteBuffer<std::uint32_t> out) {
    Var<UInt> x = n;
    loop_([&] {
      x += 1u;
      if_(x > 10u, [&] {
        out[0] = x;
        return_();
      });
    });
  });
  test::Module m = valid_module(k);
  CHECK(m.count(spv::Op::OpUnreachable) == 1);
}

TEST_CASE("statements after break or continue in the same body are not emitted") {
  auto k = kernel("dead_after_jump", [](UInt n, WriteBuffer<std::uint32_t> out) {
    for_(0u, n, [&](UInt i) {
      if_(i == 2u, [&] {
        out[1] = i;
        break_();
        out[2] = i;  // dead
      });
      if_(i == 3u, [&] {
        continue_();
        out[3] = i;  // dead
      });
    });
  });
  test::Module m = valid_module(k);
  // The loop counter's initialisation and increment, and out[1] = i.
  CHECK(m.count(spv::Op::OpStore) == 3);
}

TEST_CASE("a loop body that always breaks leaves its continue target unreachable") {
  auto k = kernel("once", [](UInt n, WriteBuffer<std::uint32_t> out) {
    for_(0u, n, [&](UInt i) {
      out[0] = i;
      break_();
    });
  });
  valid_module(k);
}

TEST_CASE("a while condition that itself contains control flow") {
  auto k = kernel("branchy_condition", [](UInt n, WriteBuffer<std::uint32_t> out) {
    Var<UInt> x = n;
    while_(
        [&] {
          Var<bool> keep = x > 0u;
          if_(x == 5u, [&] { keep = false; });
          return Expr<bool>(keep);
        },
        [&] { x -= 1u; });
    out[0] = x;
  });
  valid_module(k);
}

TEST_CASE("device control flow nested deeply validates") {
  auto k = kernel("deep", [](UInt n, WriteBuffer<std::uint32_t> out) {
    Var<UInt> acc;
    for_(0u, n, [&](UInt a) {
      if_(a % 2u == 0u, [&] {
        for_(0u, a, [&](UInt b) {
          while_([&] { return acc < b; }, [&] {
            acc += 1u;
            UInt now = acc;
            if_(now == 50u, [&] { break_(); }).else_if_(now == 60u, [&] { continue_(); }).else_([&] { acc += 2u; });
          });
          if_(b == 9u, [&] { return_(); });
        });
      }).else_([&] { acc ^= a; });
    });
    out[0] = acc;
  });
  valid_module(k);
}
