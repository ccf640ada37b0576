// Written-out results of semantics.hpp's float rules at their edges (halves, signed zeros,
// NaN, infinities): tests/dsl checks the table's functions against them, tests/kernels
// both backends.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sprig::test {

inline constexpr float nan = std::numeric_limits<float>::quiet_NaN();
inline constexpr float inf = std::numeric_limits<float>::infinity();

// Equal bits (so +0 and -0 differ), or both NaN: NaN payloads and signs are not compared.
inline bool same_float(float a, float b) {
  return std::isnan(a) ? std::isnan(b) : std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

struct RoundingCase {
  float x, floor, ceil, trunc, round, fract, abs, sign;
};

inline std::vector<RoundingCase> rounding_cases() {
  return {
      // x, floor, ceil, trunc, round, fract, abs, sign
      {-2.5f, -3.0f, -2.0f, -2.0f, -2.0f, 0.5f, 2.5f, -1.0f},
      {-1.5f, -2.0f, -1.0f, -1.0f, -2.0f, 0.5f, 1.5f, -1.0f},
      {-0.5f, -1.0f, -0.0f, -0.0f, -0.0f, 0.5f, 0.5f, -1.0f},
      {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, 0.0f, 0.0f, 0.0f},
      {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f},
      {0.5f, 0.0f, 1.0f, 0.0f, 0.0f, 0.5f, 0.5f, 1.0f},
      {1.5f, 1.0f, 2.0f, 1.0f, 2.0f, 0.5f, 1.5f, 1.0f},
      {2.5f, 2.0f, 3.0f, 2.0f, 2.0f, 0.5f, 2.5f, 1.0f},
      {3.5f, 3.0f, 4.0f, 3.0f, 4.0f, 0.5f, 3.5f, 1.0f},
      {-2.75f, -3.0f, -2.0f, -2.0f, -3.0f, 0.25f, 2.75f, -1.0f},
      {0x1.fffffep22f, 0x1.fffffcp22f, 0x1p23f, 0x1.fffffcp22f, 0x1p23f, 0.5f, 0x1.fffffep22f, 1.0f},  // 2^23 - 0.5
      {-0x1p-30f, -1.0f, -0.0f, -0.0f, -0.0f, 1.0f, 0x1p-30f, -1.0f},  // fract: 1 - 2^-30 rounds to 1
      {inf, inf, inf, inf, inf, nan, inf, 1.0f},
      {-inf, -inf, -inf, -inf, -inf, nan, inf, -1.0f},
      {nan, nan, nan, nan, nan, nan, nan, 0.0f},
  };
}

// min(x, y), max(x, y), step(x, y) (x the edge) and clamp(x, y, z).
struct ChoiceCase {
  float x, y, z, min, max, step, clamp;
};

inline std::vector<ChoiceCase> choice_cases() {
  return {
      // x, y, z, min, max, step, clamp
      {1.0f, 2.0f, 3.0f, 1.0f, 2.0f, 1.0f, 2.0f},
      {2.0f, 1.0f, 3.0f, 1.0f, 2.0f, 0.0f, 2.0f},
      {5.0f, 0.0f, 1.0f, 0.0f, 5.0f, 0.0f, 1.0f},
      {0.5f, 1.0f, 0.0f, 0.5f, 1.0f, 1.0f, 0.0f},     // lo > hi: hi
      {nan, 1.0f, 2.0f, nan, nan, 1.0f, nan},         // a NaN x propagates
      {1.0f, nan, 2.0f, 1.0f, 1.0f, 1.0f, 1.0f},      // a NaN y is dropped
      {0.5f, 0.0f, nan, 0.0f, 0.5f, 0.0f, 0.5f},      // a NaN hi is dropped
      {0.0f, -0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f},    // equal zeros: x
      {-0.0f, 0.0f, 1.0f, -0.0f, -0.0f, 1.0f, -0.0f},
      {-inf, inf, 0.0f, -inf, inf, 1.0f, 0.0f},
  };
}

}  // namespace sprig::test
