// The whole loop against an injected emitter bug: a SPIR-V compiler that emits signed >> as
// a logical shift must be caught within a few seeds, and the failure reduced to a small
// program that still shifts right.
#include "backends.hpp"
#include "campaign.hpp"

using namespace sprig;

namespace {

std::vector<std::uint32_t> compile_with_logical_shifts(const ir::Kernel& k) {
  compiler::CompileOptions options;
  options.validate = false;
  std::vector<std::uint32_t> words = compiler::compile(k, options);
  constexpr std::uint32_t op_shift_right_arithmetic = 195, op_shift_right_logical = 194;
  for (std::size_t i = 5; i < words.size();) {  // instructions start after the 5-word header
    std::uint32_t count = words[i] >> 16;
    if ((words[i] & 0xFFFFu) == op_shift_right_arithmetic) words[i] = (count << 16) | op_shift_right_logical;
    i += count == 0 ? 1 : count;
  }
  return words;
}

}  // namespace

TEST_CASE("an injected emitter bug is found by the fuzzer and reduced") {
  vk::Options options;
  options.spirv_compiler = compile_with_logical_shifts;
  vk::Device broken = vk::Device::open(test::vulkan().name(), options);
  fuzz::Runner runner(broken);
  std::optional<fuzz::Program> failing;
  fuzz::Outcome outcome;
  for (std::uint64_t seed = 1; seed <= 50 && !failing; ++seed) {
    fuzz::Program p = fuzz::generate(seed);
    outcome = runner.run(p);
    if (outcome.verdict != fuzz::Verdict::Match) failing = p;
  }
  REQUIRE(failing);
  CHECK(outcome.verdict == fuzz::Verdict::Mismatch);
  fuzz::Failure f = fuzz::reduce_failure(runner, *failing, outcome, 2000);
  INFO(f.reduced);
  CHECK(f.reduced_size * 5 < f.original_size);
  CHECK(f.reduced_size <= 30);
  CHECK(f.reduced.find(" >> ") != std::string::npos);
}
