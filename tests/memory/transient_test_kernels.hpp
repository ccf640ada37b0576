// Kernels and helpers shared by the transient-buffer tests: a step that maps one buffer to
// another, a sum of two, and a plan's buffer by name.
#pragma once

#include <string>

#include "backends.hpp"

namespace transient_test {

// out[i] = in[i] * 3 + delta
inline auto step_kernel() {
  using namespace sprig;
  return kernel("step", [](UInt delta, ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < in.size(), [&] { out[i] = in[i] * 3u + delta; });
  }, workgroup(64));
}

// out[i] = a[i] + b[i]
inline auto sum_kernel() {
  using namespace sprig;
  return kernel("sum", [](ReadBuffer<std::uint32_t> a, ReadBuffer<std::uint32_t> b, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    if_(i < a.size(), [&] { out[i] = a[i] + b[i]; });
  }, workgroup(64));
}

inline const sprig::PlannedBuffer& planned(const sprig::MemoryPlan& plan, const std::string& name) {
  for (const sprig::PlannedBuffer& b : plan.buffers)
    if (b.name == name) return b;
  FAIL("no buffer named " << name);
  return plan.buffers.front();
}

}  // namespace transient_test
