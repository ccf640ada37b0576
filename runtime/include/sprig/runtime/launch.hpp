// One kernel launch, backend-neutral: the traced kernel, the grid of workgroups and the
// arguments already marshalled into bindings and push-constant bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <variant>
#include <vector>

#include "sprig/dsl/ir.hpp"
#include "sprig/runtime/buffer.hpp"

namespace sprig {

// The number of invocations to launch in each dimension; workgroups = ceil(n / size), so
// a kernel launched over n invocations guards its tail itself (if_(i < n, ...)). `loc`
// is the user's line, for errors.
struct Grid {
  std::array<std::uint64_t, 3> invocations{1, 1, 1};
  SourceLoc loc;
};
inline Grid grid(std::uint64_t x, std::uint64_t y = 1, std::uint64_t z = 1,
                 std::source_location l = std::source_location::current()) {
  return Grid{{x, y, z}, l};
}

// Uniform parameters travel as their std140 bytes; the backend places them in memory.
using BindingArg = std::variant<RawBuffer, std::vector<std::byte>>;

struct Launch {
  std::shared_ptr<const ir::Kernel> kernel;
  std::array<std::uint32_t, 3> workgroups{1, 1, 1};
  // The grid asked for, in invocations; 0: the whole workgroups. The simulator counts
  // lanes beyond it as the grid's inactive tail.
  std::array<std::uint64_t, 3> invocations{0, 0, 0};
  std::vector<BindingArg> bindings;       // indexed by binding number
  std::vector<std::byte> push_constants;  // kernel->push_constant_size bytes, std430
  SourceLoc loc;                          // the user's line that launched it
};

// Workgroup counts for `g` and the kernel's workgroup size; throws if a count exceeds
// what the device allows (max_count per dimension).
std::array<std::uint32_t, 3> workgroups_for(const Grid& g, const std::array<std::uint32_t, 3>& size,
                                            const std::array<std::uint32_t, 3>& max_count);

// How every backend's launch checks word their errors. A buffer or uniform parameter:
// "parameter 'positions' (binding 2)", with the name the kernel gave it (param<N> unless
// named).
std::string binding_label(const ir::Param& param);
// `message` with the launch's kernel, where it was defined and where it was launched:
// "kernel 'k' (kernel.cpp:3): <message> (launched at main.cpp:40)".
std::string launch_message(const Launch& launch, const std::string& message);

}  // namespace sprig
