// The layout of the storage buffer that device_print writes to on Vulkan: a header the host
// fills in before the launch (filter, capacity) and the kernel's atomics advance, then the
// records. The emitter writes this layout and the Vulkan runtime reads it, so both take it
// from here (docs/debugging.md).
#pragma once

#include <cstdint>

namespace sprig::compiler::print_buffer {

// Header words.
inline constexpr std::uint32_t used_word = 0;         // record words reserved so far (atomic)
inline constexpr std::uint32_t dropped_word = 1;      // prints that found no room (atomic)
inline constexpr std::uint32_t filter_kind_word = 2;  // one of the filter kinds below
inline constexpr std::uint32_t filter_id_word = 3;    // 3 words: a global invocation or workgroup id
inline constexpr std::uint32_t capacity_word = 6;     // words of the record area
inline constexpr std::uint32_t header_words = 8;      // records start here

inline constexpr std::uint32_t filter_all = 0, filter_invocation = 1, filter_workgroup = 2;

// A record: the format's index in ir::Kernel::prints, the workgroup id (3 words), the local
// invocation id (3 words), then the arguments' words (sprig/dsl/print_text.hpp). The host
// sizes the record area for at least one record of every print.
inline constexpr std::uint32_t record_header_words = 7;
// Written in place of a format index where a reservation began inside the area but did not
// fit: the records end there.
inline constexpr std::uint32_t end_marker = 0xffffffffu;

}  // namespace sprig::compiler::print_buffer
