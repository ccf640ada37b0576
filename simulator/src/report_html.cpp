// The report as one self-contained HTML page (inline CSS, no scripts, nothing fetched):
// summary and kernels, tables of races and errors, and each source file the report
// refers to, line by line, with a cell coloured by the worst coalescing efficiency of the
// line's memory accesses and one by the line's SIMT efficiency (red 0% .. green 100%).
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "branch_summary.hpp"
#include "source_lines.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

namespace {

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

// A cell coloured from red (0) to green (1).
std::string rated_cell(double v, const std::string& text, const char* kind) {
  char style[64];
  std::snprintf(style, sizeof style, "background:hsl(%d,70%%,82%%)", int(120.0 * std::clamp(v, 0.0, 1.0)));
  return std::string("<td class=\"") + kind + "\" style=\"" + style + "\">" + escape(text) + "</td>";
}

std::string where(const SourceLoc& loc) {
  return loc.known() ? escape(display_path(loc.file) + ":" + std::to_string(loc.line)) : "(unknown line)";
}

// The key of a location's file in the per-file tables ("" for none: not shown).
std::string file_key(const SourceLoc& loc) { return loc.file && loc.known() ? loc.file : ""; }

std::string invocation(const std::array<std::uint32_t, 3>& id) {
  return "(" + std::to_string(id[0]) + ", " + std::to_string(id[1]) + ", " + std::to_string(id[2]) + ")";
}

// What the report knows about one source line.
struct LineFacts {
  double coalescing = 2;  // worst access efficiency; > 1: no access
  double simt = 2;        // worst SIMT efficiency; > 1: no operation
  std::vector<std::string> notes;
};

void collect(const Report& r, std::map<std::string, std::map<std::uint32_t, LineFacts>>& files) {
  for (const AccessSite& s : r.accesses) {
    LineFacts& f = files[file_key(s.loc)][s.loc.line];
    f.coalescing = std::min(f.coalescing, s.efficiency());
    char b[160];
    if (s.space == MemorySpace::Buffer)
      std::snprintf(b, sizeof b, "%.2f sectors/request (ideal %.2f)", s.sectors_per_request(),
                    s.requests ? double(s.ideal_sectors) / double(s.requests) : 0.0);
    else
      std::snprintf(b, sizeof b, "%.2f wavefronts/request (ideal %.2f)", s.wavefronts_per_request(),
                    s.requests ? double(s.ideal_wavefronts) / double(s.requests) : 0.0);
    f.notes.push_back(std::string(access_name(s.kind)) + " " + space_name(s.space) + " '" + s.memory + "' " +
                      percent(s.efficiency()) + ": " + b);
  }
  for (const LineStats& l : r.lines) {
    LineFacts& f = files[file_key(l.loc)][l.loc.line];
    f.simt = std::min(f.simt, l.simt_efficiency());
  }
  for (const BranchSite& b : r.branches) {
    if (b.executions == 0) continue;
    files[file_key(b.loc)][b.loc.line].notes.push_back(
        std::string(b.kind == BranchSite::Kind::If ? "if_" : "loop") + ": " + branch_executions(b) + ", " +
        std::to_string(b.idle_lane_steps) + " idle lane-steps" +
        (b.grid_tail_lane_steps ? ", " + std::to_string(b.grid_tail_lane_steps) + " beyond the grid" : ""));
  }
  for (const Race& race : r.races) {
    files[file_key(race.first)][race.first.line].notes.push_back(std::string(race_name(race.kind)) + " race on '" +
                                                            race.memory + "' (first access)");
    files[file_key(race.second)][race.second.line].notes.push_back(std::string(race_name(race.kind)) + " race on '" +
                                                              race.memory + "' (second access)");
  }
  for (const auto* list : {&r.errors, &r.warnings})
    for (const Diagnostic& d : *list)
      files[file_key(d.loc)][d.loc.line].notes.push_back(std::string(problem_name(d.problem)));
}

// Short files are shown whole; in long ones (a test file holding many kernels) only the
// lines the report mentions, each with a few lines of context.
bool shown(const std::map<std::uint32_t, LineFacts>& lines, std::uint32_t n, std::uint32_t count) {
  constexpr std::uint32_t whole_file_lines = 400, context = 3;
  if (count <= whole_file_lines) return true;
  auto next = lines.lower_bound(n > context ? n - context : 0);
  return next != lines.end() && next->first <= n + context;
}

void source_section(std::ostringstream& out, const std::string& file, const std::map<std::uint32_t, LineFacts>& lines) {
  const std::uint32_t count = source_line_count(file.c_str());
  out << "<h2>" << escape(display_path(file.c_str())) << "</h2>\n";
  if (count == 0) {
    out << "<p>(the source file cannot be read here)</p>\n";
    return;
  }
  out << "<table class=\"source\"><tr><th>line</th><th>coalescing</th><th>SIMT</th><th>source</th><th>figures</th></tr>\n";
  std::uint32_t previous = 0;  // the last line shown
  for (std::uint32_t n = 1; n <= count; ++n) {
    if (!shown(lines, n, count)) continue;
    if (previous != 0 && n > previous + 1)  // lines left out: a vertical ellipsis row
      out << "<tr class=\"gap\"><td class=\"n\">&#8942;</td><td colspan=\"4\"></td></tr>\n";
    previous = n;
    auto it = lines.find(n);
    auto text = source_text(file.c_str(), n);
    out << "<tr><td class=\"n\">" << n << "</td>";
    if (it != lines.end() && it->second.coalescing <= 1) out << rated_cell(it->second.coalescing, percent(it->second.coalescing), "coalescing");
    else out << "<td></td>";
    if (it != lines.end() && it->second.simt <= 1) out << rated_cell(it->second.simt, percent(it->second.simt), "simt");
    else out << "<td></td>";
    out << "<td><code>" << escape(text.value_or("")) << "</code></td><td class=\"notes\">";
    if (it != lines.end())
      for (const std::string& note : it->second.notes) out << escape(note) << "<br>";
    out << "</td></tr>\n";
  }
  out << "</table>\n";
}

}  // namespace

std::string to_html(const Report& r, const std::string& title) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << escape(title)
      << "</title>\n<style>\n"
      << "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\n"
      << "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
      << "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}\n"
      << "th{background:#eee}\ncode{white-space:pre}\ntd.n{color:#888;text-align:right}\n"
      << "td.notes{font-size:85%;color:#444}\ntr.gap td{border:none;color:#888}\n"
      << ".clean{color:#060}\n.dirty{color:#a00}\n"
      << "</style></head><body>\n<h1>" << escape(title) << "</h1>\n";
  out << "<p class=\"" << (r.clean() ? "clean" : "dirty") << "\">" << r.launches << " launches, "
      << r.lane_operations << " lane-operations, " << r.races.size() << " races, " << r.errors.size() << " errors, "
      << r.warnings.size() << " warnings. Sectors of " << r.sector_bytes << " bytes, lines of " << r.line_bytes
      << ", " << r.banks << " banks of " << r.bank_bytes << " bytes.</p>\n";

  out << "<h2>Kernels</h2>\n<table class=\"kernels\"><tr><th>kernel</th><th>launches</th><th>invocations</th>"
         "<th>lane-operations</th><th>SIMT efficiency</th><th>divergent branch executions</th><th>idle: branch</th>"
         "<th>loop</th><th>returned</th><th>grid tail</th><th>partial subgroup</th><th>host ms</th></tr>\n";
  for (const KernelStats& k : r.kernels)
    out << "<tr><td>" << escape(k.name) << "</td><td>" << k.launches << "</td><td>" << k.invocations << "</td><td>"
        << k.lane_operations << "</td>" << rated_cell(k.simt_efficiency(), percent(k.simt_efficiency()), "simt")
        << "<td>" << percent(k.divergent_share()) << "</td><td>" << k.idle.branch << "</td><td>" << k.idle.loop
        << "</td><td>" << k.idle.returned << "</td><td>" << k.idle.grid_tail << "</td><td>" << k.idle.partial_subgroup
        << "</td><td>" << k.host_ms << "</td></tr>\n";
  out << "</table>\n";

  out << "<h2>Races</h2>\n";
  if (r.races.empty()) {
    out << "<p class=\"clean\">No race.</p>\n";
  } else {
    out << "<table class=\"races\"><tr><th>kind</th><th>kernel</th><th>memory</th><th>first access</th>"
           "<th>second access</th><th>example invocations</th><th>count</th></tr>\n";
    for (const Race& race : r.races)
      out << "<tr><td>" << race_name(race.kind) << "</td><td>" << escape(race.kernel) << "</td><td>"
          << space_name(race.space) << " '" << escape(race.memory) << "'</td><td>" << where(race.first)
          << "<br><code>" << escape(source_line(race.first.file, race.first.line).value_or("")) << "</code></td><td>"
          << where(race.second) << "<br><code>" << escape(source_line(race.second.file, race.second.line).value_or(""))
          << "</code></td><td>" << invocation(race.first_invocation) << " then " << invocation(race.second_invocation)
          << "</td><td>" << race.count << "</td></tr>\n";
    out << "</table>\n";
  }

  for (const auto& [title_text, list] : {std::pair{"Errors", &r.errors}, std::pair{"Warnings", &r.warnings}}) {
    out << "<h2>" << title_text << "</h2>\n";
    if (list->empty()) {
      out << "<p class=\"clean\">None.</p>\n";
      continue;
    }
    out << "<table class=\"diagnostics\"><tr><th>problem</th><th>kernel</th><th>where</th><th>message</th>"
           "<th>first invocation</th><th>occurrences</th></tr>\n";
    for (const Diagnostic& d : *list)
      out << "<tr><td>" << problem_name(d.problem) << "</td><td>" << escape(d.kernel) << "</td><td>" << where(d.loc)
          << "</td><td>" << escape(d.message) << "</td><td>" << invocation(d.invocation) << "</td><td>"
          << d.occurrences << "</td></tr>\n";
    out << "</table>\n";
  }

  std::map<std::string, std::map<std::uint32_t, LineFacts>> files;
  collect(r, files);
  files.erase("");
  if (!files.empty()) out << "<h1>Source</h1>\n";
  for (const auto& [file, lines] : files) source_section(out, file, lines);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace sprig::sim
