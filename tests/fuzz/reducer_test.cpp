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

bool uses_rotate_left(const fuzz::Expr& e) {
  if ((e.kind == fuzz::ExprKind::Binary) && e.op == fuzz::Op::RotateLeft) return true;
  for (const fuzz::Expr& a : e.args)
    if (uses_rotate_left(a)) return true;
  return false;
}

bool uses_rotate_left(const std::vector<fuzz::Stmt>& block) {
  for (const fuzz::Stmt& s : block) {
    for (const fuzz::Expr& e : s.exprs)
      if (uses_rotate_left(e)) return true;
    if (uses_rotate_left(s.body) || uses_rotate_left(s.else_body)) return true;
  }
  return false;
}

bool uses_rotate_left(const fuzz::Program& p) {
  for (const fuzz::Expr& e : p.initial_values)
    if (uses_rotate_left(e)) return true;
  for (const fuzz::Function& f : p.functions)
    if (uses_rotate_left(f.body) || uses_rotate_left(f.result)) return true;
  return uses_rotate_left(p.body);
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
  fuzz::StillFails fails = [](const fuzz::Program& candidate) {
    if (!uses_rotate_left(candidate)) return false;
    try {
      fuzz::trace_program(candidate);
      return true;
    } catch (const std::exception&) {
      return false;
    }
  };
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
