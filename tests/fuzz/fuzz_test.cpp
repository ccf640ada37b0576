// The differential fuzzer in CI: a fixed set of seeds must agree on the simulator and on
// the Vulkan device (lavapipe, validation layer on), and cover the language.
#include <set>
#include <string>

#include "backends.hpp"
#include "campaign.hpp"
#include "features.hpp"
#include "printer.hpp"

using namespace sprig;

namespace {

// Enough programs to cover every feature many times, in a run time CI can afford
// (docs/fuzzing.md, "Running", has the times).
constexpr std::uint64_t ci_first_seed = 1;
constexpr std::size_t ci_seeds = 1200;

// Seeds that hit a known driver bug, with its regression test in regressions_test.cpp: none
// now (seed 606's lavapipe sign-extension bug has the driver quirk lavapipe-sext-compare).
bool known_driver_bug(const std::string& /*device*/, std::uint64_t /*seed*/) { return false; }

}  // namespace

TEST_CASE("the generator is deterministic from its seed") {
  for (std::uint64_t seed : {1ull, 2ull, 0xDEADBEEFull, ~0ull}) {
    fuzz::Program a = fuzz::generate(seed), b = fuzz::generate(seed);
    CHECK(fuzz::print_program(a) == fuzz::print_program(b));
    CHECK(fuzz::print_inputs(a) == fuzz::print_inputs(b));
  }
  CHECK(fuzz::print_program(fuzz::generate(1)) != fuzz::print_program(fuzz::generate(2)));
}

TEST_CASE("fuzzed programs agree on the simulator and Vulkan (CI seeds)") {
  fuzz::Runner runner(test::vulkan());
  fuzz::CampaignOptions options;
  options.first_seed = ci_first_seed;
  options.seeds = ci_seeds;
  options.reduce_attempts = 400;
  options.on_failure = [](const fuzz::Failure& f) {
    UNSCOPED_INFO("seed " << f.seed << ": " << fuzz::to_string(f.outcome.verdict) << "\n"
                          << f.outcome.detail << "reduced:\n" << f.reduced << f.reduced_detail);
  };
  fuzz::CampaignResult result = fuzz::run_campaign(runner, options);
  for (const fuzz::Failure& f : result.failures) {
    INFO("seed " << f.seed);
    CHECK(known_driver_bug(test::vulkan().name(), f.seed));
  }

  // The seeds exercise the whole language.
  const char* required[] = {
      "type:Bool", "type:Int", "type:UInt", "type:Float", "type:Long", "type:ULong", "type:UVec4", "type:IVec2",
      "type:BVec3", "type:Vec3", "op:Div:int", "op:Rem:int", "op:Div:by-constant-zero", "op:Rem:by-constant-zero",
      "op:Shl:int", "op:Shr:int", "op:RotateLeft:int", "op:MulHi:int", "op:AddCarry:int", "op:PopCount:int",
      "op:CountLeadingZeros:int", "expr:BitfieldExtract", "expr:BitfieldInsert", "op:Min:int", "op:Max:float",
      "expr:Select", "op:Lt:bool", "expr:Cast", "expr:Bitcast", "expr:UnitFloat", "op:Mul:float", "op:Sqrt:float",
      "op:Sin:float", "op:Div:float", "expr:StructField", "expr:ArrayElement", "stmt:AssignField",
      "stmt:AssignElement", "stmt:If", "stmt:For", "stmt:While", "stmt:Loop", "stmt:Break", "stmt:Continue",
      "stmt:Return", "callable", "expr:Call", "expr:Input", "expr:OutputRead", "stmt:SharedRound",
      "stmt:Atomic", "op:AtomicAdd:64", "stmt:Subgroup", "op:SubgroupInclusiveAdd", "op:SubgroupShuffleXor",
      "op:SubgroupBallotCount", "op:Div:signed", "op:Rem:signed", "op:Shr:signed", "op:Lt:signed", "op:Gt:signed",
      "Cast:Int->Long", "Cast:Int->ULong", "Cast:Float->UInt", "Cast:Float->ULong", "Cast:Float->Long",
      // generator version 3
      "op:FloorDiv:signed", "op:Mod:signed", "op:FloorDiv:ULong", "op:Mod:Long", "op:FloorDiv:IVec3", "op:Mod:UVec2",
      "op:FloorDiv:float", "op:Mod:Vec4", "op:FloorDiv:by-constant-zero", "op:Mod:by-constant-zero",
      "op:FloorDiv:min-by-minus-one", "op:Mod:broadcast", "expr:Construct", "construct:4=2+2", "construct:3=1+2",
      "construct:4=splat", "construct:BVec4", "construct:Vec3", "construct:IVec2"};
  for (const char* feature : required) {
    INFO(feature);
    CHECK(result.features.count(feature) == 1);
  }
}
