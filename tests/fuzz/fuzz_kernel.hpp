// The kernel every fuzz program becomes: one fixed parameter list, so that the runner can
// launch any program the same way on any device.
#pragma once

#include <cstdint>

#include "sprig/sprig.hpp"

#include "program.hpp"

namespace sprig::fuzz {

// The user struct fuzz programs keep in a local variable.
struct FuzzStruct {
  std::uint32_t a;
  std::int32_t b;
  uvec2 c;
};
SPRIG_STRUCT(FuzzStruct, a, b, c)

using FuzzKernel = Kernel<ReadBuffer<std::uint32_t>,  // in32
                          ReadBuffer<std::uint64_t>,  // in64
                          Buffer<std::uint32_t>,      // out32
                          Buffer<std::uint64_t>,      // out64
                          Buffer<std::uint32_t>,      // outf: bits of exactly computed floats
                          Buffer<float>,              // outa: floats compared with a tolerance
                          Buffer<std::uint32_t>,      // atom32
                          Buffer<std::uint64_t>,      // atom64
                          UInt>;                      // param (push constant)

// Traces `program` into a kernel; `subgroup_size` (0: the device's choice) is required of
// the device. Throws TraceError if the program is ill-formed (a generator or reducer bug).
FuzzKernel trace_program(const Program& program, std::uint32_t subgroup_size = 0);

}  // namespace sprig::fuzz
