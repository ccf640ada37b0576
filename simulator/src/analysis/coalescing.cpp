#include "coalescing.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace sprig::sim::analysis {

namespace {

std::uint32_t log2_of(std::uint32_t v) { return std::uint32_t(std::countr_zero(v)); }

// Sorts `v` and returns how many distinct values it holds.
template <std::size_t N>
std::uint32_t distinct(std::array<std::uint64_t, N>& v, std::uint32_t n) {
  std::sort(v.begin(), v.begin() + n);
  return std::uint32_t(std::unique(v.begin(), v.begin() + n) - v.begin());
}

// Lanes whose offsets follow each other with no gap (the common, coalesced case).
bool contiguous(Mask m, const std::uint64_t* offsets, std::uint32_t bytes) {
  std::uint64_t expected = offsets[lowest_lane(m)];
  bool ok = true;
  for_each_lane(m, [&](std::uint32_t l) {
    ok = ok && offsets[l] == expected;
    expected += bytes;
  });
  return ok;
}

}  // namespace

CoalescingAnalysis::CoalescingAnalysis(const AnalysisOptions& o, std::size_t code_size, std::uint32_t width)
    : sector_shift_(log2_of(o.sector_bytes)),
      line_shift_(log2_of(o.line_bytes)),
      bank_word_shift_(log2_of(o.bank_bytes)),
      banks_(o.banks),
      request_lanes_(o.request_lanes == 0 ? width : std::min(o.request_lanes, width)),
      by_pc_(code_size) {}

template <class Measure>
void CoalescingAnalysis::each_request(std::uint32_t pc, Mask lanes, std::uint32_t bytes, Measure&& measure) {
  if (!lanes) return;
  AccessFigures& f = by_pc_[pc];
  ++f.executions;
  for (std::uint32_t first = 0; first < 64 && (lanes >> first); first += request_lanes_) {
    const Mask part = lanes & (first_lanes(request_lanes_) << first);
    if (!part) continue;
    ++f.requests;
    const std::uint32_t n = lane_count(part);
    f.active_lanes += n;
    f.bytes += std::uint64_t(n) * bytes;
    measure(f, part);
  }
}

void CoalescingAnalysis::buffer_access(std::uint32_t pc, Mask lanes, const std::uint64_t* offsets,
                                       std::uint32_t bytes) {
  each_request(pc, lanes, bytes, [&](AccessFigures& f, Mask part) {
    const std::uint32_t s = sector_shift_, ls = line_shift_;
    if (contiguous(part, offsets, bytes)) {
      const std::uint64_t begin = offsets[lowest_lane(part)];
      const std::uint64_t end = begin + std::uint64_t(lane_count(part)) * bytes;  // exclusive
      f.sectors += ((end - 1) >> s) - (begin >> s) + 1;
      f.lines += ((end - 1) >> ls) - (begin >> ls) + 1;
      f.ideal_sectors += (end - begin + (std::uint64_t(1) << s) - 1) >> s;
      return;
    }
    // Every sector each lane's bytes fall in (an access spans at most a few), and the
    // distinct lane offsets for the bytes actually needed.
    std::array<std::uint64_t, 64 * 4> sectors;
    std::array<std::uint64_t, 64> starts;
    std::uint32_t ns = 0, nl = 0;
    for_each_lane(part, [&](std::uint32_t l) {
      starts[nl++] = offsets[l];
      const std::uint64_t last = (offsets[l] + bytes - 1) >> s;
      for (std::uint64_t sec = offsets[l] >> s; sec <= last && ns < sectors.size(); ++sec) sectors[ns++] = sec;
    });
    const std::uint32_t distinct_sectors = distinct(sectors, ns);
    std::uint32_t distinct_lines = 0;
    std::uint64_t previous_line = ~std::uint64_t(0);
    for (std::uint32_t i = 0; i < distinct_sectors; ++i) {
      const std::uint64_t line = sectors[i] >> (ls - s);
      distinct_lines += line != previous_line;
      previous_line = line;
    }
    const std::uint64_t unique_bytes = std::uint64_t(distinct(starts, nl)) * bytes;
    f.sectors += distinct_sectors;
    f.lines += distinct_lines;
    f.ideal_sectors += (unique_bytes + (std::uint64_t(1) << s) - 1) >> s;
  });
}

void CoalescingAnalysis::shared_access(std::uint32_t pc, Mask lanes, const std::uint64_t* offsets,
                                       std::uint32_t bytes) {
  each_request(pc, lanes, bytes, [&](AccessFigures& f, Mask part) {
    // The distinct bank words the request touches; lanes reading the same word share it.
    std::array<std::uint64_t, 64 * 8> words;
    std::uint32_t n = 0;
    const std::uint32_t ws = bank_word_shift_;
    for_each_lane(part, [&](std::uint32_t l) {
      const std::uint64_t last = (offsets[l] + bytes - 1) >> ws;
      for (std::uint64_t w = offsets[l] >> ws; w <= last && n < words.size(); ++w) words[n++] = w;
    });
    const std::uint32_t d = distinct(words, n);
    std::array<std::uint32_t, 256> per_bank{};
    std::uint32_t worst = 0;
    for (std::uint32_t i = 0; i < d; ++i) worst = std::max(worst, ++per_bank[words[i] % banks_ % per_bank.size()]);
    f.wavefronts += worst;
    f.ideal_wavefronts += (d + banks_ - 1) / banks_;
  });
}

}  // namespace sprig::sim::analysis
