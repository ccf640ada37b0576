// sprig-plot's command line: every option is declared once (command_line.cpp), parsed once
// into the typed fields below and checked there, so the commands take their options as
// given and never re-read or re-check them.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

#include <sprig/stdlib/pos/params.hpp>

namespace sprig_plot {

// A mistake of the user's (a bad option, a file that cannot be read or written, a device
// too small for K): printed as "sprig-plot: error: ..." with exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class DeviceKind { Vulkan, Simulator };

struct PlotOptions {
  // Exactly one of the two: one record of this seed, or `records` records of the sector
  // from piece offset `piece_offset` (the sum is at most 2^16).
  std::optional<sprig::pos::Seed> seed, sector_id;
  std::uint32_t piece_offset = 0;
  std::uint32_t records = 1;
  int k = 20;  // within pos::min_k..max_k
  sprig::pos::Mode mode = sprig::pos::Mode::Abundance;
  std::string output;
  DeviceKind device = DeviceKind::Vulkan;
  std::string devices;  // --devices: a list of Vulkan devices; empty: the best device
  // Records in flight on each device, each on its own worker thread; unset: the device
  // type's default (plot_in_flight in devices.hpp), or as many as fit memory_budget.
  std::optional<std::uint32_t> in_flight;
  // --memory-budget: bytes of device memory sprig may hold on each device; 0: no budget.
  std::uint64_t memory_budget = 0;
  // --resume: continue the records an interrupted run of the same command left in FILE.partial.
  bool resume = false;
};

struct VerifyOptions {
  std::string input;
  DeviceKind device = DeviceKind::Vulkan;
};

struct BenchOptions {
  int k = 20;
  std::uint32_t records = 20;  // at least 1
  sprig::pos::Mode mode = sprig::pos::Mode::Abundance;
  DeviceKind device = DeviceKind::Vulkan;
  std::optional<std::uint32_t> in_flight;  // at least 1; unset: the device type's best
  std::string devices;                     // as PlotOptions::devices
  // As PlotOptions::memory_budget; without --in-flight, as many records in flight as fit
  // (at most the device type's best).
  std::uint64_t memory_budget = 0;
};

using Command = std::variant<PlotOptions, VerifyOptions, BenchOptions>;

// The command and its options, or nullopt when --help was asked for (and printed).
// Throws UsageError naming the option and what is wrong with it.
std::optional<Command> parse_command_line(int argc, const char* const* argv);

}  // namespace sprig_plot
