// MemoryPlan as a table for people and as JSON for tools.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sprig/runtime/memory_budget.hpp"
#include "sprig/runtime/memory_plan.hpp"

namespace sprig {

std::string MemoryPlan::text() const {
  std::ostringstream out;
  out << "memory plan: " << commands << " commands, peak " << byte_size_text(peak_bytes()) << " = persistent "
      << byte_size_text(persistent_bytes) << " + scratch " << byte_size_text(scratch_bytes)
      << " (transients alive at once: at most " << byte_size_text(live_transient_peak) << ")";
  if (host_scratch_bytes > 0) out << "; in host memory: scratch " << byte_size_text(host_scratch_bytes);
  out << "\n";
  out << "  kind        bytes         commands      offset        name\n";
  char line[256];
  for (const PlannedBuffer& b : buffers) {
    std::string range = b.used ? std::to_string(b.first_command) + ".." + std::to_string(b.last_command) : "unused";
    std::string offset = b.transient && b.used ? std::to_string(b.offset) : "-";
    const char* kind = b.transient ? (b.host ? "spilled" : "transient") : (b.host ? "host" : "persistent");
    std::snprintf(line, sizeof line, "  %-10s  %-12llu  %-12s  %-12s  %s\n", kind,
                  static_cast<unsigned long long>(b.bytes), range.c_str(), offset.c_str(),
                  b.name.empty() ? "-" : b.name.c_str());
    out << line;
  }
  return out.str();
}

std::string MemoryPlan::json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const PlannedBuffer& b : buffers) {
    nlohmann::json entry{{"name", b.name},     {"bytes", b.bytes}, {"transient", b.transient},
                         {"used", b.used},     {"host", b.host},   {"touches", b.touches}};
    if (b.used) entry["commands"] = {b.first_command, b.last_command};
    if (b.transient && b.used) entry["offset"] = b.offset;
    list.push_back(std::move(entry));
  }
  nlohmann::json plan{{"commands", commands},
                      {"peak_bytes", peak_bytes()},
                      {"persistent_bytes", persistent_bytes},
                      {"scratch_bytes", scratch_bytes},
                      {"host_scratch_bytes", host_scratch_bytes},
                      {"live_transient_peak", live_transient_peak},
                      {"buffers", std::move(list)}};
  return plan.dump(2);
}

}  // namespace sprig
