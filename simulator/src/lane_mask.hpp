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

constexpr std::uint32_t lane_count(Mask m) { return std::uint32_t(std::popcount(m)); }
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

}  // namespace sprig::sim
