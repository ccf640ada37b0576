// The reducer, against a fake failure: "the device computes rotate_left wrong". Every
// program that still rotates left fails; the reducer must keep one rotate and drop the rest.
#include <functional>

#include <catch2/catch.hpp>

#include "fuzz_kernel.hpp"
#include "generator.hpp"
#include "printer.hpp"
#include "reducer.hpp"

using namespace sprig;

namespace {

// Whether any expression node of the program satisfies `found`.
template <class F>
bool any_node(const fuzz::Expr& e, const F& found) {
  if (found(e)) return true;
  for (const fuzz::Expr& a : e.args)
    if (any_node(a, found)) return true;
  return false;
}

template <class F>
bool any_node(const std::vector<fuzz::Stmt>& block, const F& found) {
  for (const fuzz::Stmt& s : block) {
    for (const fuzz::Expr& e : s.exprs)
      if (any_node(e, found)) return true;
    if (any_node(s.body, found) || any_node(s.else_body, found)) return true;
  }
  return false;
}

template <class F>
bool any_node(const fuzz::Program& p, const F& found) {
  for (const fuzz::Expr& e : p.initial_values)
    if (any_node(e, found)) return true;
  for (const fuzz::Function& f : p.functions)
    if (any_node(f.body, found) || any_node(f.result, found)) return true;
  return any_node(p.body, found);
}

bool uses_rotate_left(const fuzz::Program& p) {
  return any_node(p, [](const fuzz::Expr& e) { return e.kind == fuzz::ExprKind::Binary && e.op == fuzz::Op::RotateLeft; });
}

bool is_float_floor_division(const fuzz::Expr& e) {
  return e.kind == fuzz::ExprKind::Binary && e.type.is_float() && (e.op == fuzz::Op::FloorDiv || e.op == fuzz::Op::Mod);
}

bool traces(const fuzz::Program& p) {
  try {
    fuzz::trace_program(p);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

TEST_CASE("the reducer shrinks a program with an injected mismatch to a few nodes") {
  // The first seed whose program rotates left.
  fuzz::Program p;
  for (std::uint64_t seed = 1;; ++seed) {
    p = fuzz::generate(seed);
    if (uses_rotate_left(p) && fuzz::program_size(p) > 100) break;
  }
  // The fake failure also requires a program that still traces, as a real one does.
  fuzz::StillFails fails = [](const fuzz::Program& candidate) { return uses_rotate_left(candidate) && traces(candidate); };
  REQUIRE(fails(p));
  fuzz::ReduceStats stats;
  fuzz::Program reduced = fuzz::reduce(p, fails, 20000, &stats);
  INFO(fuzz::print_program(reduced));
  CHECK(fails(reduced));
  CHECK(fuzz::program_size(reduced) < fuzz::program_size(p) / 4);
  CHECK(fuzz::program_size(reduced) <= 12);
  CHECK(reduced.workgroups == 1);
  CHECK(stats.accepted > 0);
}

TEST_CASE("the reducer keeps the divisors of float floor_div and mod non-zero") {
  // A fake failure, "float floor division is wrong": the reducer shrinks all else, but a zero
  // divisor would make infinities and NaNs, which plain kernels may compute as they like.
  auto uses = [](const fuzz::Program& p) { return any_node(p, is_float_floor_division); };
  fuzz::Program p;
  for (std::uint64_t seed = 1;; ++seed) {
    p = fuzz::generate(seed);
    if (uses(p) && fuzz::program_size(p) > 100) break;
  }
  fuzz::StillFails fails = [&](const fuzz::Program& candidate) { return uses(candidate) && traces(candidate); };
  fuzz::Program reduced = fuzz::reduce(p, fails, 20000);
  INFO(fuzz::print_program(reduced));
  CHECK(fails(reduced));
  CHECK(fuzz::program_size(reduced) <= 12);
  bool zero_divisor = any_node(reduced, [](const fuzz::Expr& e) {
    return is_float_floor_division(e) && (e.args[1].kind != fuzz::ExprKind::Constant || (e.args[1].bits[0] & 0x7FFFFFFFu) == 0);
  });
  CHECK(!zero_divisor);
}
