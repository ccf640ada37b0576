// A sequence profile in the Chrome trace event format ("JSON Object Format"), which
// ui.perfetto.dev and chrome://tracing load: metadata events name the process (the device)
// and its two tracks, and each command is one complete event ("ph": "X") whose timestamp
// and duration are microseconds on the sequence's timeline.
#include <fstream>
#include <nlohmann/json.hpp>

#include "sprig/dsl/error.hpp"
#include "sprig/runtime/profile.hpp"

namespace sprig {

namespace {

constexpr int kProcess = 1;
constexpr int kKernelTrack = 1, kTransferTrack = 2;

nlohmann::json metadata(const char* what, int track, const std::string& name) {
  return {{"ph", "M"}, {"name", what}, {"pid", kProcess}, {"tid", track}, {"args", {{"name", name}}}};
}

nlohmann::json statistic_value(const DriverStatistic& s) {
  return std::visit([](auto v) { return nlohmann::json(v); }, s.value);
}

// {"<executable>": {"<statistic>": value, ...}, ...}, or the reason there are none.
nlohmann::json statistics_json(const KernelStatistics& statistics) {
  if (!statistics.available()) return "unavailable: " + statistics.unavailable;
  nlohmann::json executables = nlohmann::json::object();
  for (const PipelineExecutableStatistics& e : statistics.executables) {
    nlohmann::json values = nlohmann::json::object();
    for (const DriverStatistic& s : e.statistics) values[s.name] = statistic_value(s);
    if (e.subgroup_size != 0) values["subgroup size"] = e.subgroup_size;
    executables[e.name] = std::move(values);
  }
  return executables;
}

nlohmann::json command_event(const CommandProfile& c) {
  bool kernel = c.kind == CommandKind::Kernel;
  nlohmann::json args = nlohmann::json::object();
  if (kernel) {
    if (c.loc.known()) {
      args["source"] = c.loc.str();
      args["file"] = c.loc.file;
      args["line"] = c.loc.line;
    }
    args["workgroups"] = c.workgroups;
    if (c.statistics) args["statistics"] = statistics_json(*c.statistics);
  } else {
    args["bytes"] = c.bytes;
  }
  return {{"ph", "X"},
          {"name", c.name},
          {"cat", std::string(to_string(c.kind))},
          {"pid", kProcess},
          {"tid", kernel ? kKernelTrack : kTransferTrack},
          {"ts", c.start_ms * 1000.0},
          {"dur", c.duration_ms() * 1000.0},
          {"args", std::move(args)}};
}

}  // namespace

std::string SequenceProfile::trace_json() const {
  nlohmann::json events = nlohmann::json::array();
  events.push_back(metadata("process_name", 0, "sprig: " + device + " (" + backend + ")"));
  events.push_back(metadata("thread_name", kKernelTrack, "kernels"));
  events.push_back(metadata("thread_name", kTransferTrack, "copies and fills"));
  for (const CommandProfile& c : commands) events.push_back(command_event(c));
  nlohmann::json trace{{"traceEvents", std::move(events)},
                       {"displayTimeUnit", "ns"},
                       {"otherData", {{"device", device}, {"backend", backend}, {"driver", driver}, {"clock", clock}}}};
  return trace.dump(1);
}

void SequenceProfile::write_trace(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out << trace_json();
  if (!out) throw Error("cannot write the trace to " + path);
}

}  // namespace sprig
