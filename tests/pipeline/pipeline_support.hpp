// Shared helpers of the pipeline tests.
#pragma once

#include <cstdint>
#include <numeric>
#include <vector>

#include "backends.hpp"
#include "sprig/stdlib/pipeline/pipeline.hpp"

namespace pipeline_test {

inline std::vector<std::uint32_t> iota_values(std::uint32_t n, std::uint32_t first = 0) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

// A single-pass input range that computes its elements as it is read (not random access,
// not sized): 0, 1, 2, ... up to `count`.
class Counter {
 public:
  class iterator {
   public:
    using value_type = std::uint32_t;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    explicit iterator(std::uint64_t count) : left_(count) {}
    std::uint32_t operator*() const { return next_; }
    iterator& operator++() {
      ++next_;
      --left_;
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(std::default_sentinel_t) const { return left_ == 0; }

   private:
    std::uint32_t next_ = 0;
    std::uint64_t left_ = 0;
  };
  explicit Counter(std::uint64_t count) : count_(count) {}
  iterator begin() const { return iterator(count_); }
  std::default_sentinel_t end() const { return {}; }

 private:
  std::uint64_t count_;
};

}  // namespace pipeline_test

template <>
inline constexpr bool std::ranges::enable_view<pipeline_test::Counter> = true;
