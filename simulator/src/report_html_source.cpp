// The HTML report's source view: each file the report refers to, line by line, with a cell
// coloured by the worst coalescing efficiency of the line's memory accesses, one by the
// line's SIMT efficiency, and a note per finding on the line. Rows have ids, so that the
// tables above link to them and the page's script can highlight a finding's lines.
#include <algorithm>
#include <cstdio>

#include "branch_summary.hpp"
#include "report_html.hpp"
#include "source_lines.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim::html {

namespace {

using Files = std::map<std::string, std::map<std::uint32_t, LineFacts>>;

// The key of a location's file in the per-file tables ("" for none: not shown).
std::string file_key(const SourceLoc& loc) { return loc.file && loc.known() ? loc.file : ""; }

void add_note(Files& files, const SourceLoc& loc, const std::string& kernel, std::string finding, std::string text) {
  files[file_key(loc)][loc.line].notes.push_back(Note{kernel, std::move(finding), std::move(text)});
}

Files collect(const Report& r) {
  Files files;
  for (std::size_t i = 0; i < r.accesses.size(); ++i) {
    const AccessSite& s = r.accesses[i];
    LineFacts& f = files[file_key(s.loc)][s.loc.line];
    f.coalescing = std::min(f.coalescing, s.efficiency());
    const bool buffer = s.space == MemorySpace::Buffer;
    char b[160];
    std::snprintf(b, sizeof b, "%.2f %s/request (ideal %.2f)",
                  buffer ? s.sectors_per_request() : s.wavefronts_per_request(), buffer ? "sectors" : "wavefronts",
                  s.requests ? double(buffer ? s.ideal_sectors : s.ideal_wavefronts) / double(s.requests) : 0.0);
    add_note(files, s.loc, s.kernel, finding_id("access", i),
             std::string(access_name(s.kind)) + " " + space_name(s.space) + " '" + s.memory + "' " +
                 percent(s.efficiency()) + ": " + b);
  }
  for (const LineStats& l : r.lines) {
    LineFacts& f = files[file_key(l.loc)][l.loc.line];
    f.simt = std::min(f.simt, l.simt_efficiency());
  }
  for (std::size_t i = 0; i < r.branches.size(); ++i) {
    const BranchSite& b = r.branches[i];
    if (b.executions == 0) continue;
    add_note(files, b.loc, b.kernel, finding_id("branch", i),
             std::string(b.kind == BranchSite::Kind::If ? "if_" : "loop") + ": " + branch_executions(b) + ", " +
                 std::to_string(b.idle_lane_steps) + " idle lane-steps" +
                 (b.grid_tail_lane_steps ? ", " + std::to_string(b.grid_tail_lane_steps) + " beyond the grid" : ""));
  }
  for (std::size_t i = 0; i < r.races.size(); ++i) {
    const Race& race = r.races[i];
    const std::string what = std::string(race_name(race.kind)) + " race on " + space_name(race.space) + " '" +
                             race.memory + "': ";
    add_note(files, race.first, race.kernel, finding_id("race", i),
             what + "first access, by invocation " + invocation(race.first_invocation));
    add_note(files, race.second, race.kernel, finding_id("race", i),
             what + "second access, by invocation " + invocation(race.second_invocation));
  }
  for (const auto& [kind, list] : {std::pair{"error", &r.errors}, std::pair{"warning", &r.warnings}})
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Diagnostic& d = (*list)[i];
      add_note(files, d.loc, d.kernel, finding_id(kind, i), std::string(problem_name(d.problem)) + ": " + d.message);
    }
  files.erase("");
  return files;
}

// Short files are shown whole; in long ones (a test file holding many kernels) only the
// lines the report mentions, each with a few lines of context.
bool shown(const std::map<std::uint32_t, LineFacts>& lines, std::uint32_t n, std::uint32_t count) {
  constexpr std::uint32_t whole_file_lines = 400, context = 3;
  if (count <= whole_file_lines) return true;
  auto next = lines.lower_bound(n > context ? n - context : 0);
  return next != lines.end() && next->first <= n + context;
}

void write_row(std::ostringstream& out, const std::string& id, std::uint32_t n, const LineFacts* facts,
               const std::string& text) {
  out << "<tr id=\"" << id << "\"><td class=\"n\">" << n << "</td>";
  if (facts && facts->coalescing <= 1) out << rated_cell(facts->coalescing, percent(facts->coalescing), "coalescing");
  else out << "<td></td>";
  if (facts && facts->simt <= 1) out << rated_cell(facts->simt, percent(facts->simt), "simt");
  else out << "<td></td>";
  out << "<td><code>" << escape(text) << "</code></td><td class=\"notes\">";
  if (facts)
    for (const Note& note : facts->notes)
      out << "<div class=\"note\" data-kernel=\"" << escape(note.kernel) << "\" data-finding=\"" << note.finding
          << "\">" << escape(note.text) << "</div>";
  out << "</td></tr>\n";
}

}  // namespace

SourceView::SourceView(const Report& r) : files_(collect(r)) {
  for (const auto& [file, lines] : files_) index_.emplace(file, index_.size());
}

std::string SourceView::anchor(const SourceLoc& loc) const {
  auto file = index_.find(file_key(loc));
  if (file == index_.end()) return "";
  return "src-" + std::to_string(file->second) + "-" + std::to_string(loc.line);
}

std::string SourceView::link(const SourceLoc& loc) const {
  const std::string id = anchor(loc);
  if (id.empty()) return where(loc);
  // The file's name is enough beside the source text; the whole path is the link's title.
  const std::string path = display_path(loc.file), line = ":" + std::to_string(loc.line);
  return "<a class=\"src\" href=\"#" + id + "\" title=\"" + escape(path + line) + "\">" +
         escape(path.substr(path.find_last_of('/') + 1) + line) + "</a>";  // npos + 1 == 0
}

void SourceView::write(std::ostringstream& out) const {
  if (!files_.empty()) out << "<h1 id=\"source\">Source</h1>\n";
  for (const auto& [file, lines] : files_) {
    const std::size_t index = index_.at(file);
    const std::uint32_t count = source_line_count(file.c_str());
    out << "<section class=\"file\" id=\"file-" << index << "\"><h2>" << escape(display_path(file.c_str()))
        << "</h2>\n";
    if (count == 0)  // still a row per mentioned line, for the links to land on
      out << "<p>(the source file cannot be read here)</p>\n";
    out << "<table class=\"source\"><tr><th>line</th><th>coalescing</th><th>SIMT</th><th>source</th>"
           "<th>figures</th></tr>\n";
    std::uint32_t previous = 0;  // the last line shown
    auto row = [&](std::uint32_t n) {
      if (previous != 0 && n > previous + 1)  // lines left out: a vertical ellipsis row
        out << "<tr class=\"gap\"><td class=\"n\">&#8942;</td><td colspan=\"4\"></td></tr>\n";
      previous = n;
      auto it = lines.find(n);
      write_row(out, "src-" + std::to_string(index) + "-" + std::to_string(n), n,
                it == lines.end() ? nullptr : &it->second, source_text(file.c_str(), n).value_or(""));
    };
    if (count == 0)
      for (const auto& [n, facts] : lines) row(n);
    for (std::uint32_t n = 1; n <= count; ++n)
      if (shown(lines, n, count)) row(n);
    // Lines past the end of a file that changed since: shown without text.
    for (auto it = lines.upper_bound(count); count != 0 && it != lines.end(); ++it) row(it->first);
    out << "</table></section>\n";
  }
}

}  // namespace sprig::sim::html
