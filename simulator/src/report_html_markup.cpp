// The HTML report's small pieces of markup: escaping, percentages, coloured and keyed cells.
#include <algorithm>
#include <cstdio>

#include "report_html.hpp"
#include "source_lines.hpp"

namespace sprig::sim::html {

std::string escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string percent(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100.0 * v);
  return b;
}

std::string invocation(const std::array<std::uint32_t, 3>& id) {
  return "(" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " + std::to_string(id[2]) + ")";
}

std::string rated_cell(double v, const std::string& text, const char* kind) {
  char style[64];
  std::snprintf(style, sizeof style, "background:hsl(%d,70%%,82%%)", int(120.0 * std::clamp(v, 0.0, 1.0)));
  return std::string("<td class=\"") + kind + "\" style=\"" + style + "\">" + escape(text) + "</td>";
}

std::string keyed_cell(const std::string& key, const std::string& content, const char* kind) {
  std::string cell = "<td";
  if (kind) cell += std::string(" class=\"") + kind + "\"";
  return cell + " data-v=\"" + escape(key) + "\">" + content + "</td>";
}

std::string per_request(std::uint64_t actual, std::uint64_t ideal, std::uint64_t requests) {
  if (requests == 0) return "";
  char b[96];
  std::snprintf(b, sizeof b, "%.2f (ideal %.2f)", double(actual) / double(requests), double(ideal) / double(requests));
  return b;
}

std::string where(const SourceLoc& loc) {
  return loc.known() ? escape(display_path(loc.file) + ":" + std::to_string(loc.line)) : "(unknown line)";
}

}  // namespace sprig::sim::html
