// Helpers for the simulator's tests: shared devices per subgroup size and a one-call
// "run this kernel and give me its output buffer".
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/dsl.hpp"
#include "sprig/simulator/device.hpp"
#include "backends.hpp"

namespace sprig::simtest {

// A device with `subgroup_size` lanes per subgroup, shared by the tests that use it (their
// reports accumulate: tests that inspect a report make their own device).
inline sim::Device& device(std::uint32_t subgroup_size = 32) { return test::simulator(subgroup_size); }

using test::outputs;

inline std::string text(const sim::Report& r) {
  std::ostringstream s;
  s << r;
  return s.str();
}

// sums[w] = the sum of workgroup w's 128 elements of `in` (zero past its end): a tree in
// shared memory with a barrier per level and fewer lanes busy at each.
inline auto tree_sum_kernel(const std::string& name) {
  return kernel(name, [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> sums) {
    auto partial = shared_array<std::uint32_t>(128, "partial");
    UInt l = local_index();
    UInt g = global_id().x();
    partial[l] = select(g < in.size(), in[g], 0u);
    barrier();
    for (std::uint32_t stride = 64; stride > 0; stride /= 2) {
      if_(l < stride, [&] { partial[l] += partial[l + stride]; });
      barrier();
    }
    if_(l == 0u, [&] { sums[workgroup_id().x()] = partial[0u]; });
  }, workgroup(128));
}

}  // namespace sprig::simtest
