// The printer's source is the program that ran: printed_programs.cpp, the printed source of
// a few seeds written at build time, compiles here, and each kernel computes on the
// simulator exactly what the tracer's kernel of the same program computes. (The IR itself
// may differ in the order of loads: C++ evaluates a call's arguments in an order of its
// own.) So a failure's printed repro is the failing program.
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "features.hpp"
#include "generator.hpp"
#include "printed_programs.hpp"
#include "runner.hpp"

using namespace sprig;

TEST_CASE("printed programs compile and compute what the fuzzer's kernels compute") {
  REQUIRE(!fuzz::printed_programs().empty());
  sim::Options options;
  options.strict = true;
  sim::Device simulator(options);
  std::set<std::string> covered;
  for (const fuzz::PrintedProgram& printed : fuzz::printed_programs()) {
    INFO("seed " << printed.seed);
    fuzz::Program p = fuzz::generate(printed.seed);
    std::set<std::string> f = fuzz::features(p);
    covered.insert(f.begin(), f.end());
    fuzz::Outputs from_source = fuzz::execute(simulator, printed.trace(), p);
    fuzz::Outputs traced = fuzz::execute(simulator, fuzz::trace_program(p), p);
    CHECK(fuzz::compare_outputs(traced, from_source).empty());
  }
  // The printed seeds include the newest language features, in every shape.
  const char* required[] = {"op:FloorDiv:Int",   "op:FloorDiv:UInt", "op:FloorDiv:Long", "op:Mod:ULong",
                            "op:Mod:Float",      "op:FloorDiv:Float", "op:Mod:broadcast", "construct:2=1+1",
                            "construct:3=2+1",   "construct:3=1+2",  "construct:4=2+2",  "construct:4=1+3",
                            "construct:4=splat", "construct:BVec3",  "construct:Vec2",   "stmt:While",
                            "callable"};
  for (const char* feature : required) {
    INFO(feature);
    CHECK(covered.count(feature) == 1);
  }
}
