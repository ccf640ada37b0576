// Both backends for kernel-level tests. Each test case that runs a kernel does
//
//   sprig::Device& dev = test::device(SPRIG_BACKEND);
//
// so Catch2 runs it once on Vulkan (lavapipe in CI, validation layer on: any message fails
// the test) and once on the simulator, and checks the same expected values on both.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "sprig/sprig.hpp"

namespace sprig::test {

enum class Backend { Vulkan, Simulator };

// Whether this run tests `backend`: both unless SPRIG_TEST_BACKENDS names a list
// ("simulator", "vulkan" or both, comma-separated). The sanitizer builds test the
// simulator alone, where Mesa's JIT would only add its own noise and time.
bool backend_enabled(Backend backend);

// The shared device of each backend, opened on first use.
sprig::Device& device(Backend backend);
sprig::vk::Device& vulkan();
sprig::sim::Device& simulator();
// A simulator with the given subgroup size (4, 8, 16, 32 or 64), shared per size.
sprig::sim::Device& simulator(std::uint32_t subgroup_size);

}  // namespace sprig::test

namespace Catch {
template <>
struct StringMaker<sprig::test::Backend> {
  static std::string convert(sprig::test::Backend b) { return b == sprig::test::Backend::Vulkan ? "vulkan" : "simulator"; }
};
}  // namespace Catch

#define SPRIG_BACKEND                                                                \
  GENERATE(filter([](::sprig::test::Backend b) { return ::sprig::test::backend_enabled(b); }, \
                  values({::sprig::test::Backend::Vulkan, ::sprig::test::Backend::Simulator})))

// Target numbers 0..last for tests whose target 0 is the Vulkan device and the rest are
// simulators: 0 is left out when Vulkan is not tested.
#define SPRIG_TARGET_NUMBER(last) \
  GENERATE(filter([](int n) { return n != 0 || ::sprig::test::backend_enabled(::sprig::test::Backend::Vulkan); }, \
                  range(0, (last) + 1)))

namespace sprig::test {

// Runs `k` over `g` with `args...` followed by a fresh zero-filled buffer of `count` T,
// and returns that buffer's contents.
template <class T, class K, class... Args>
std::vector<T> outputs(sprig::Device& dev, const K& k, std::size_t count, const Grid& g, Args&&... args) {
  auto out = dev.upload(std::vector<T>(count));
  dev.run(k, g, std::forward<Args>(args)..., out);
  return dev.download(out);
}

}  // namespace sprig::test
