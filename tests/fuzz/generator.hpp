// Random programs from a 64-bit seed: well typed, terminating (every loop has a small bound),
// free of data races (each invocation writes its own output slots; shared memory is written
// and read between barriers; atomics are commutative, their results unused) and with
// barriers and subgroup operations only in uniform control flow.
#pragma once

#include <cstdint>

#include "program.hpp"

namespace sprig::fuzz {

struct GeneratorOptions {
  bool subgroups = true;       // subgroup operations (the simulator must run at the device's subgroup size)
  bool approx_floats = true;   // float built-ins compared with a tolerance
};

Program generate(std::uint64_t seed, const GeneratorOptions& options = {});

}  // namespace sprig::fuzz
