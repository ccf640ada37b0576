// Kernel statistics and sequence profiles as text; the trace is in profile_trace.cpp.
#include "sprig/runtime/profile.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace sprig {

namespace {

bool contains_ignoring_case(std::string_view text, std::string_view part) {
  auto equal = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  };
  return std::search(text.begin(), text.end(), part.begin(), part.end(), equal) != text.end();
}

}  // namespace

std::string DriverStatistic::text() const {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(std::uint64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const {
      char text[32];
      std::snprintf(text, sizeof text, "%g", v);
      return text;
    }
  };
  return std::visit(Visitor{}, value);
}

const DriverStatistic* KernelStatistics::find(std::string_view name) const {
  for (const PipelineExecutableStatistics& e : executables) {
    for (const DriverStatistic& s : e.statistics) {
      if (contains_ignoring_case(s.name, name)) return &s;
    }
  }
  return nullptr;
}

std::string KernelStatistics::text() const {
  if (!available()) return "unavailable: " + unavailable;
  std::string text;
  for (const PipelineExecutableStatistics& e : executables) {
    if (!text.empty()) text += "; ";
    // A pipeline of several executables names each.
    if (executables.size() > 1) text += e.name + ": ";
    for (std::size_t i = 0; i < e.statistics.size(); ++i) {
      text += (i > 0 ? ", " : "") + e.statistics[i].name + ": " + e.statistics[i].text();
    }
  }
  return text.empty() ? "none reported" : text;
}

std::shared_ptr<const KernelStatistics> unavailable_statistics(std::string why) {
  auto statistics = std::make_shared<KernelStatistics>();
  statistics->unavailable = std::move(why);
  return statistics;
}

std::string_view to_string(CommandKind kind) {
  switch (kind) {
    case CommandKind::Kernel: return "kernel";
    case CommandKind::Copy: return "copy";
    case CommandKind::Fill: return "fill";
  }
  return "?";
}

std::string SequenceProfile::text() const {
  std::ostringstream out;
  double total = 0;
  for (const CommandProfile& c : commands) total += c.duration_ms();
  char line[512];
  std::snprintf(line, sizeof line, "profile: %zu commands, %.3f ms on %s (%s; times: %s)\n", commands.size(), total,
                device.c_str(), backend.c_str(), clock.c_str());
  out << line;
  std::vector<std::string> unavailable;
  for (const CommandProfile& c : commands) {
    std::string where = c.kind == CommandKind::Kernel && c.loc.known() ? c.loc.str() : "";
    std::string size = c.kind == CommandKind::Kernel
                           ? std::to_string(c.workgroups[0]) + "x" + std::to_string(c.workgroups[1]) + "x" +
                                 std::to_string(c.workgroups[2]) + " workgroups"
                           : std::to_string(c.bytes) + " bytes";
    std::string what = c.kind == CommandKind::Kernel ? "kernel " + c.name : std::string(to_string(c.kind));
    std::snprintf(line, sizeof line, "  %-32s %10.3f ms  %-22s %s", what.c_str(), c.duration_ms(), size.c_str(),
                  where.c_str());
    std::string text = line;
    text.erase(text.find_last_not_of(' ') + 1);
    out << text << "\n";
    if (c.kind != CommandKind::Kernel || !c.statistics) continue;
    if (c.statistics->available()) {
      out << "    statistics: " << c.statistics->text() << "\n";
    } else if (std::find(unavailable.begin(), unavailable.end(), c.statistics->unavailable) == unavailable.end()) {
      unavailable.push_back(c.statistics->unavailable);
    }
  }
  // Why statistics are missing is the same for most kernels: said once, after them.
  for (const std::string& why : unavailable) out << "  no driver statistics: " << why << "\n";
  return out.str();
}

}  // namespace sprig
