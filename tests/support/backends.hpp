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

#define SPRIG_BACKEND GENERATE(::sprig::test::Backend::Vulkan, ::sprig::test::Backend::Simulator)

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
