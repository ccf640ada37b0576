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

namespace sprig::simtest {

// A device with `subgroup_size` lanes per subgroup, shared by the tests that use it (their
// reports accumulate: tests that inspect a report make their own device).
sim::Device& device(std::uint32_t subgroup_size = 32);

// Runs `k` over `g` with `args...` followed by a fresh zero-filled buffer of `count` T, and
// returns that buffer.
template <class T, class K, class... Args>
std::vector<T> outputs(sprig::Device& dev, const K& k, std::size_t count, const Grid& g, Args&&... args) {
  auto out = dev.upload(std::vector<T>(count));
  dev.run(k, g, std::forward<Args>(args)..., out);
  return dev.download(out);
}

inline std::string text(const sim::Report& r) {
  std::ostringstream s;
  s << r;
  return s.str();
}

}  // namespace sprig::simtest
