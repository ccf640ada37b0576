// A record's proofs as the plotter returns them and the plot file stores them; its own
// header so that the file format does not depend on the device plotter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sprig::pos {

// Bit s % 8 of byte s / 8 of found_proofs says s-bucket s has a proof (only the first 2^15
// such are set), and proof i (8K bytes) belongs to s_buckets[i].
struct PlotResult {
  int k = 0;
  std::vector<std::uint8_t> found_proofs;   // 8192 bytes
  std::vector<std::uint32_t> s_buckets;     // ascending, at most 2^15
  std::vector<std::uint8_t> proofs;         // s_buckets.size() * 8K bytes
  std::size_t count() const { return s_buckets.size(); }
};

}  // namespace sprig::pos
