// The contents of the plot's Deal and Deliver messages between ranks (mpi_world.hpp).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <sprig/stdlib/pos/params.hpp>
#include <sprig/stdlib/pos/plot_result.hpp>

namespace sprig_plot {

// Deal: the record's index and seed.
std::vector<std::uint8_t> encode_deal(std::uint32_t record, const sprig::pos::Seed& seed);
std::pair<std::uint32_t, sprig::pos::Seed> decode_deal(const std::vector<std::uint8_t>& bytes);

// Deliver: the record's index and its PlotResult.
std::vector<std::uint8_t> encode_delivery(std::uint32_t record, const sprig::pos::PlotResult& result);
std::pair<std::uint32_t, sprig::pos::PlotResult> decode_delivery(const std::vector<std::uint8_t>& bytes);

}  // namespace sprig_plot
