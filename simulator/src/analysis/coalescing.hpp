// Coalescing of buffer accesses and bank conflicts of shared-memory accesses, per memory
// instruction: each subgroup-level execution is split into requests of
// AnalysisOptions::request_lanes lanes, and each request is measured as a GPU's memory
// system would serve it — distinct sectors and lines for buffers, wavefronts (the most
// distinct words any one bank must deliver) for shared memory.
#pragma once

#include <cstdint>
#include <vector>

#include "../lane_mask.hpp"
#include "sprig/simulator/device.hpp"

namespace sprig::sim::analysis {

struct AccessFigures {
  std::uint64_t executions = 0;
  std::uint64_t requests = 0;
  std::uint64_t active_lanes = 0;
  std::uint64_t bytes = 0;
  std::uint64_t sectors = 0;
  std::uint64_t lines = 0;
  std::uint64_t ideal_sectors = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal_wavefronts = 0;

  // Figures of the same site from another worker thread (every figure is a count).
  AccessFigures& operator+=(const AccessFigures& b) {
    executions += b.executions;
    requests += b.requests;
    active_lanes += b.active_lanes;
    bytes += b.bytes;
    sectors += b.sectors;
    lines += b.lines;
    ideal_sectors += b.ideal_sectors;
    wavefronts += b.wavefronts;
    ideal_wavefronts += b.ideal_wavefronts;
    return *this;
  }
};

class CoalescingAnalysis {
 public:
  CoalescingAnalysis(const AnalysisOptions& options, std::size_t code_size, std::uint32_t width);

  // One execution of the memory instruction at `pc` by the lanes `lanes`, each accessing
  // `bytes` bytes at offsets[lane] from the start of its buffer or shared variable.
  void buffer_access(std::uint32_t pc, Mask lanes, const std::uint64_t* offsets, std::uint32_t bytes);
  void shared_access(std::uint32_t pc, Mask lanes, const std::uint64_t* offsets, std::uint32_t bytes);

  const std::vector<AccessFigures>& by_pc() const { return by_pc_; }

 private:
  template <class Measure>
  void each_request(std::uint32_t pc, Mask lanes, std::uint32_t bytes, Measure&& measure);

  std::uint32_t sector_shift_, line_shift_, bank_word_shift_, banks_;
  std::uint32_t request_lanes_;
  std::vector<AccessFigures> by_pc_;
};

}  // namespace sprig::sim::analysis
