// Lane masks: one bit per lane of a subgroup (at most 64 lanes).
#pragma once

#include <bit>
#include <cstdint>

#include "sprig/simulator/observer.hpp"

namespace sprig::sim {

using Mask = LaneMask;

constexpr Mask lane_bit(std::uint32_t lane) { return Mask(1) << lane; }

// The lanes 0..count-1.
constexpr Mask first_lanes(std::uint32_t count) { return count >= 64 ? ~Mask(0) : lane_bit(count) - 1; }

// Without -mpopcnt std::popcount is a library call; this stays inline on any x86-64.
constexpr std::uint32_t lane_count(Mask m) {
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return std::uint32_t((m * 0x0101010101010101ull) >> 56);
}
constexpr std::uint32_t lowest_lane(Mask m) { return std::uint32_t(std::countr_zero(m)); }
constexpr std::uint32_t highest_lane(Mask m) { return 63u - std::uint32_t(std::countl_zero(m)); }

// Calls f(lane) for each set lane, lowest first.
template <class F>
inline void for_each_lane(Mask m, F&& f) {
  while (m) {
    f(lowest_lane(m));
    m &= m - 1;
  }
}

// The same, with a plain counted loop when all `width` lanes are set (the common case,
// which the compiler can unroll and vectorise).
template <class F>
inline void for_each_lane(Mask m, std::uint32_t width, F&& f) {
  if (m == first_lanes(width)) {
    for (std::uint32_t lane = 0; lane < width; ++lane) f(lane);
  } else {
    for_each_lane(m, f);
  }
}

}  // namespace sprig::sim
