// Runs a program on the simulator and on a Vulkan device and compares what they wrote:
// integers and exactly computed floats bit for bit, the approximate floats within a
// tolerance (docs/fuzzing.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sprig/sprig.hpp"

#include "fuzz_kernel.hpp"
#include "program.hpp"

namespace sprig::fuzz {

enum class Verdict {
  Match,
  Mismatch,          // the backends disagree
  GeneratorBug,      // the program does not trace (the generator or reducer made it ill-formed)
  InvalidSpirv,      // spirv-val rejects the emitted module
  SimulatorFailure,  // the simulator threw (strict mode: a race, an out-of-bounds access, ...)
  DeviceFailure,     // the Vulkan device threw (validation layer message, device error)
};
const char* to_string(Verdict v);

struct Outcome {
  Verdict verdict = Verdict::Match;
  std::string detail;  // what differed, or the exception's message
};

// Everything a program's kernel writes.
struct Outputs {
  std::vector<std::uint32_t> out32, outf, atom32;
  std::vector<std::uint64_t> out64, atom64;
  std::vector<float> outa;
};

// Runs `k` (traced from `p`, or written by hand) on `device` with p's inputs and launch.
Outputs execute(sprig::Device& device, const FuzzKernel& k, const Program& p);

// Empty if `expected` (the simulator) and `got` (the device) agree; else the differences.
std::string compare_outputs(const Outputs& expected, const Outputs& got);

class Runner {
 public:
  // The simulator runs at `device`'s subgroup size, in strict mode.
  explicit Runner(vk::Device& device);
  Outcome run(const Program& program);
  std::uint32_t subgroup_size() const { return subgroup_size_; }

 private:
  vk::Device& device_;
  std::uint32_t subgroup_size_;
  std::unique_ptr<sim::Device> simulator_;
};

}  // namespace sprig::fuzz
