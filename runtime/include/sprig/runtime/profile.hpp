// What a finished sequence cost: every command on one timeline (kernels with the line that
// launched them, copies, fills), each kernel's driver statistics where the device reports
// them, as text for people and as a Chrome trace for ui.perfetto.dev or chrome://tracing.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sprig/dsl/source_loc.hpp"

namespace sprig {

// One statistic of a compiled kernel, named and described as its driver words it
// (VK_KHR_pipeline_executable_properties): registers, shared memory, spills, ...
struct DriverStatistic {
  std::string name, description;
  std::variant<bool, std::int64_t, std::uint64_t, double> value;
  std::string text() const;  // the value: "true", "24", "0.5"
};

// The statistics of one of the driver's executables for a kernel (a compute pipeline
// usually has one).
struct PipelineExecutableStatistics {
  std::string name, description;
  std::uint32_t subgroup_size = 0;
  std::vector<DriverStatistic> statistics;
};

// A kernel's driver statistics, or why there are none: not asked for (vk::Options::
// pipeline_statistics, SPRIG_PROFILE=1), not exposed by the device, the simulator.
struct KernelStatistics {
  std::vector<PipelineExecutableStatistics> executables;
  std::string unavailable;  // empty when the driver gave them

  bool available() const { return unavailable.empty(); }
  // The first statistic whose name contains `name`, ignoring case; null if none.
  const DriverStatistic* find(std::string_view name) const;
  // "Registers: 24, Spills: 0, ..." or "unavailable: <why>".
  std::string text() const;
};

// Statistics that say why there are none.
std::shared_ptr<const KernelStatistics> unavailable_statistics(std::string why);

enum class CommandKind : std::uint8_t { Kernel, Copy, Fill };
std::string_view to_string(CommandKind kind);

// One command of a sequence as it ran.
struct CommandProfile {
  CommandKind kind = CommandKind::Kernel;
  std::string name;  // the kernel's name; "copy" or "fill"
  SourceLoc loc;     // kernels: the user's line that launched it
  // On the sequence's timeline, which starts when its first command starts.
  double start_ms = 0, end_ms = 0;
  std::array<std::uint32_t, 3> workgroups{0, 0, 0};  // kernels
  std::uint64_t bytes = 0;                            // copies and fills
  std::shared_ptr<const KernelStatistics> statistics;  // kernels: never null

  double duration_ms() const { return end_ms - start_ms; }
};

// The profile of one finished sequence (Sequence::profile()).
struct SequenceProfile {
  std::string device, backend, driver;
  // Where the times come from. "timestamp queries": the GPU's clock, a command's time runs
  // from the end of the commands before it to its own end. "none": the device has no
  // timestamps or vk::Options::timestamps is off, and every time is 0. "simulator host
  // time": the host time the simulator spent interpreting each command, no GPU estimate.
  std::string clock;
  std::vector<CommandProfile> commands;  // in recording order

  // One line per command, with each kernel's statistics.
  std::string text() const;
  // The Chrome trace event format: one complete event ("ph": "X") per command, kernels
  // and transfers on two tracks, times in microseconds, the launching line, workgroups and
  // statistics in each event's args.
  std::string trace_json() const;
  // trace_json() into `path`; throws sprig::Error if the file cannot be written.
  void write_trace(const std::string& path) const;
};

}  // namespace sprig
