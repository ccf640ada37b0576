// Shared helpers of the device plotting tests: seeds for both sides and the whole-result
// comparison with the reference's PosProofs.
#pragma once

#include <algorithm>
#include <cstdint>

#include <catch2/catch.hpp>

#include "pos_reference.hpp"
#include "sprig/stdlib/pos/pos.hpp"

namespace pos_device_test {

inline pos_ref::Seed seed_of(std::uint32_t i) {
  pos_ref::Seed seed{};
  for (std::size_t b = 0; b < seed.size(); ++b) seed[b] = std::uint8_t(b * 7 + i * 131 + 1);
  return seed;
}

inline sprig::pos::Seed device_seed(const pos_ref::Seed& s) {
  sprig::pos::Seed out{};
  std::copy(s.begin(), s.end(), out.begin());
  return out;
}

// The plotter's rules for the reference's.
inline sprig::pos::Mode mode_of(pos_ref::Mode mode) {
  return mode == pos_ref::Mode::Abundance ? sprig::pos::Mode::Abundance : sprig::pos::Mode::Subspace;
}

inline void require_same_proofs(const sprig::pos::PlotResult& device, const pos_ref::PosProofs& expected) {
  REQUIRE(device.k == expected.k);
  REQUIRE(device.count() == expected.count());
  REQUIRE(std::equal(device.found_proofs.begin(), device.found_proofs.end(), expected.found_proofs.begin(),
                     expected.found_proofs.end()));
  REQUIRE(device.s_buckets == expected.s_buckets);
  REQUIRE(device.proofs == expected.proofs);
}

}  // namespace pos_device_test
