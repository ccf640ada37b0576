// The plot seeds of a sector's records (pos-spec §1.6), hashed on the device.
#pragma once

#include <cstdint>
#include <vector>

#include <sprig/runtime/device.hpp>
#include <sprig/stdlib/pos/params.hpp>

namespace sprig_plot {

// The seeds of records at piece offsets first .. first + count - 1:
// BLAKE3(sector_id ‖ piece_offset as u16 LE), one 34-byte message per record.
std::vector<sprig::pos::Seed> sector_seeds(sprig::Device& device, const sprig::pos::Seed& sector_id,
                                           std::uint32_t first, std::uint32_t count);

}  // namespace sprig_plot
