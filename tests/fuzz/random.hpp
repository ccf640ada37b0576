// The fuzzer's pseudo-random numbers: splitmix64, so that a seed means the same program with
// every standard library (std::uniform_*_distribution differs between them).
#pragma once

#include <cstdint>
#include <vector>

namespace sprig::fuzz {

class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n > 0); the modulo bias is irrelevant here.
  std::uint32_t below(std::uint32_t n) { return std::uint32_t(next() % n); }
  // Uniform in [lo, hi].
  int between(int lo, int hi) { return lo + int(below(std::uint32_t(hi - lo + 1))); }
  // True with probability percent/100.
  bool chance(std::uint32_t percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& items) { return items[below(std::uint32_t(items.size()))]; }

 private:
  std::uint64_t state_;
};

}  // namespace sprig::fuzz
