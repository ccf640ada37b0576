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

}  // namespace sprig::simtest
