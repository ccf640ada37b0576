// Where the standard-library tests run: Vulkan (whatever subgroup size the device has) and
// the simulator at subgroup sizes 8 and 32. The simulator interprets every lane, so its
// inputs stay below ~70000 elements to keep the suite fast.
#pragma once

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sprig/stdlib/stdlib.hpp"

#include "backends.hpp"

namespace stdlib_test {

struct Target {
  sprig::Device* device;
  std::string name;
  std::size_t max_elements;
};

inline Target target(int which) {
  if (which == 0) return {&sprig::test::vulkan(), "vulkan", std::size_t(1) << 20};
  std::uint32_t size = which == 1 ? 8 : 32;
  return {&sprig::test::simulator(size), "simulator/" + std::to_string(size), 70000};
}

// Every target, one GENERATE per test case.
#define STDLIB_TARGET ::stdlib_test::target(SPRIG_TARGET_NUMBER(2))

// Sizes around tile boundaries and primes, up to the target's limit.
inline std::vector<std::size_t> sizes_for(const Target& t, std::vector<std::size_t> all = {0, 1, 2, 7, 255, 256, 257, 1000, 4099,
                                                                                              65537, std::size_t(1) << 20}) {
  std::vector<std::size_t> out;
  for (std::size_t n : all)
    if (n <= t.max_elements) out.push_back(n);
  return out;
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint32_t seed, std::uint64_t modulus = 0) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    std::uint64_t r = rng();
    if (modulus) r %= modulus;
    if constexpr (std::is_floating_point_v<T>) x = T(std::int64_t(r % 17) - 8);  // small integers: float sums exact in any order
    else x = T(r);
  }
  return v;
}

// "" when equal; otherwise where and how the vectors first differ (Catch would print them whole).
template <class T>
std::string first_difference(const std::vector<T>& got, const std::vector<T>& expected) {
  if (got.size() != expected.size())
    return "sizes differ: " + std::to_string(got.size()) + " vs " + std::to_string(expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == expected[i]) continue;
    std::string text = "first difference at " + std::to_string(i) + " of " + std::to_string(got.size());
    if constexpr (requires(std::ostream& o, T v) { o << v; }) {
      std::ostringstream o;
      o << ": got " << got[i] << ", expected " << expected[i];
      text += o.str();
    }
    return text;
  }
  return "";
}

}  // namespace stdlib_test
