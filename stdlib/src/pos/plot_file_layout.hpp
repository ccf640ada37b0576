// Where each field of a plot file's header sits, and little-endian words: private to the
// reader and the writer, so the byte layout is written down in one place.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sprig/stdlib/pos/plot_file_format.hpp"

namespace sprig::pos::plot_file_layout {

inline constexpr std::array<std::uint8_t, 8> magic = {'S', 'P', 'R', 'I', 'G', 'P', 'O', 'S'};
inline constexpr std::size_t version_offset = 8;
inline constexpr std::size_t k_offset = 12;
inline constexpr std::size_t records_offset = 16;
inline constexpr std::size_t rules_offset = 20;
inline constexpr std::size_t reserved_offset = 24;  // zero up to plot_file_header_bytes

using HeaderBytes = std::array<std::uint8_t, plot_file_header_bytes>;

inline void store_u32(std::uint8_t* out, std::uint32_t v) {
  for (int b = 0; b < 4; ++b) out[b] = std::uint8_t(v >> (8 * b));
}
inline std::uint32_t load_u32(const std::uint8_t* in) {
  return std::uint32_t(in[0]) | std::uint32_t(in[1]) << 8 | std::uint32_t(in[2]) << 16 | std::uint32_t(in[3]) << 24;
}

inline std::uint32_t rules_code(Mode mode) { return mode == Mode::Subspace ? 1u : 0u; }

// Empty, or what is impossible about these header fields as stored.
std::string field_problem(std::uint32_t k, std::uint32_t rules, std::uint32_t records);

HeaderBytes encode_header(const PlotFileHeader& header);

}  // namespace sprig::pos::plot_file_layout
