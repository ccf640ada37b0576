// Programs as the printer writes them, compiled into test_fuzz: printed_programs.cpp is
// written at build time by fuzz-printed-programs (printed_programs_main.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "fuzz_kernel.hpp"

namespace sprig::fuzz {

struct PrintedProgram {
  std::uint64_t seed;           // generate(seed), latest generator version
  FuzzKernel (*trace)();        // traces the printed source
};

const std::vector<PrintedProgram>& printed_programs();

}  // namespace sprig::fuzz
