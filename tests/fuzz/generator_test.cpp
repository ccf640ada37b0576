// The generator's versions: version 2 still makes the programs that earlier campaigns' seeds
// name, version 3 only adds floor division and vector constructors to them, and neither lets
// a float outside outa be computed inexactly.
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "generator.hpp"
#include "generator_internal.hpp"
#include "printer.hpp"

using namespace sprig;

namespace {

std::uint64_t fnv1a(const std::string& text, std::uint64_t h) {
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

fuzz::GeneratorOptions version(int v) {
  fuzz::GeneratorOptions options;
  options.version = v;
  return options;
}

bool same_statements(const std::vector<fuzz::Stmt>& a, const std::vector<fuzz::Stmt>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const fuzz::Stmt &x = a[i], &y = b[i];
    if (x.kind != y.kind || x.op != y.op || x.target != y.target || x.id != y.id || x.bound != y.bound ||
        x.exprs.size() != y.exprs.size() || !same_statements(x.body, y.body) ||
        !same_statements(x.else_body, y.else_body))
      return false;
  }
  return true;
}

bool floats_exact(const fuzz::Expr& e) {
  if (e.type.is_float() && !fuzz::float_bits(e).exact()) return false;
  for (const fuzz::Expr& a : e.args)
    if (!floats_exact(a)) return false;
  return true;
}

bool floats_exact(const std::vector<fuzz::Stmt>& block) {
  for (const fuzz::Stmt& s : block) {
    bool approximate = s.kind == fuzz::StmtKind::Store && fuzz::OutputBuffer(s.target) == fuzz::OutputBuffer::OutApproxFloat;
    if (!approximate)
      for (const fuzz::Expr& e : s.exprs)
        if (!floats_exact(e)) return false;
    if (!floats_exact(s.body) || !floats_exact(s.else_body)) return false;
  }
  return true;
}

bool floats_exact(const fuzz::Program& p) {
  for (const fuzz::Expr& e : p.initial_values)
    if (!floats_exact(e)) return false;
  for (const fuzz::Function& f : p.functions)
    if (!floats_exact(f.body) || !floats_exact(f.result)) return false;
  return floats_exact(p.body);
}

}  // namespace

TEST_CASE("generator version 2 makes the programs it made before version 3 existed") {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    fuzz::Program p = fuzz::generate(seed, version(2));
    h = fnv1a(fuzz::print_inputs(p) + fuzz::print_program(p) + "\n", h);
  }
  // The printed programs of seeds 1-300 (sprig-fuzz --print --seeds 300) before version 3:
  // a change to the printer's output for version 2's nodes changes it as well.
  CHECK(h == 0x3e2344a1370b53ffull);
}

TEST_CASE("generator version 3 keeps version 2's launch, inputs, variables and statements") {
  int changed = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    INFO("seed " << seed);
    fuzz::Program v2 = fuzz::generate(seed, version(2)), v3 = fuzz::generate(seed);
    CHECK(v3.workgroup_size == v2.workgroup_size);
    CHECK(v3.workgroups == v2.workgroups);
    CHECK(v3.param == v2.param);
    CHECK(v3.in32 == v2.in32);
    CHECK(v3.in64 == v2.in64);
    CHECK(v3.variables == v2.variables);
    CHECK(v3.functions.size() == v2.functions.size());
    for (std::size_t f = 0; f < v2.functions.size() && f < v3.functions.size(); ++f) {
      CHECK(v3.functions[f].variables == v2.functions[f].variables);
      CHECK(same_statements(v3.functions[f].body, v2.functions[f].body));
    }
    CHECK(same_statements(v3.body, v2.body));
    changed += fuzz::print_program(v3) != fuzz::print_program(v2);
  }
  CHECK(changed > 180);  // the additions reach nearly every program
}

TEST_CASE("no float outside outa is computed inexactly, in either version") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    INFO("seed " << seed);
    CHECK(floats_exact(fuzz::generate(seed, version(2))));
    CHECK(floats_exact(fuzz::generate(seed)));
  }
}

TEST_CASE("an unknown generator version is refused") {
  CHECK_THROWS_AS(fuzz::generate(1, version(1)), std::invalid_argument);
  CHECK_THROWS_AS(fuzz::generate(1, version(fuzz::latest_generator_version + 1)), std::invalid_argument);
}
