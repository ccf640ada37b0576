// Random programs from a 64-bit seed: well typed, terminating (every loop has a small bound),
// free of data races (each invocation writes its own output slots; shared memory is written
// and read between barriers; atomics are commutative, their results unused) and with
// barriers and subgroup operations only in uniform control flow.
#pragma once

#include <cstdint>

#include "program.hpp"

namespace sprig::fuzz {

// Generator versions (docs/fuzzing.md, Results): a seed names one program per version.
//   2: signed stores;
//   3: version 2's program, then floor division and vector constructors added from a second
//      random stream, so that every choice of version 2 stays as it was.
inline constexpr int latest_generator_version = 3;

struct GeneratorOptions {
  bool subgroups = true;       // subgroup operations (the simulator must run at the device's subgroup size)
  bool approx_floats = true;   // float built-ins compared with a tolerance
  int version = latest_generator_version;  // 2 or 3
};

Program generate(std::uint64_t seed, const GeneratorOptions& options = {});

}  // namespace sprig::fuzz
