// The HTML report's table of sites: every memory access site, branch and loop, one row
// each with its kernel, its line (linked to the source view), the line's text and its
// figures. The page's script sorts it by any column and filters it by kernel; empty cells
// (a figure that does not apply to the row's kind) sort last either way.
#include "branch_summary.hpp"
#include "report_html.hpp"
#include "source_lines.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim::html {

namespace {

// The cells every row starts with: kernel, line, source text, kind.
void row_start(std::ostringstream& out, const std::string& kernel, const std::string& finding, const SourceLoc& loc,
               const SourceView& source, const std::string& kind) {
  out << "<tr data-kernel=\"" << escape(kernel) << "\" data-finding=\"" << finding << "\"><td>" << escape(kernel)
      << "</td>"
      << keyed_cell(loc.known() ? display_path(loc.file) + ":" + std::to_string(loc.line) : "", source.link(loc))
      << "<td class=\"snippet\"><code>" << escape(source_line(loc.file, loc.line).value_or("")) << "</code></td><td>"
      << escape(kind)
      << "</td>";
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

}  // namespace

void write_sites(std::ostringstream& out, const Report& r, const SourceView& source) {
  out << "<h2 id=\"sites\">Sites</h2>\n";
  if (r.accesses.empty() && r.branches.empty()) {
    out << "<p>No memory access, branch or loop was measured.</p>\n";
    return;
  }
  // Figures where more is worse sort largest first on the first click.
  out << "<table class=\"sites\"><thead><tr><th>kernel</th><th>line</th><th>source</th><th>kind</th><th>memory</th>"
         "<th data-first=\"descending\">executions</th><th>efficiency</th>"
         "<th data-first=\"descending\">sectors/request</th>"
         "<th data-first=\"descending\" title=\"bank conflicts: wavefronts per request\">wavefronts/request</th>"
         "<th data-first=\"descending\">divergent</th><th data-first=\"descending\">idle lane-steps</th>"
         "<th data-first=\"descending\">beyond the grid</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < r.accesses.size(); ++i) {
    const AccessSite& s = r.accesses[i];
    row_start(out, s.kernel, finding_id("access", i), s.loc, source,
              std::string(access_name(s.kind)) + " " + space_name(s.space));
    const bool buffer = s.space == MemorySpace::Buffer;
    std::string rated = rated_cell(s.efficiency(), percent(s.efficiency()), "coalescing");
    rated.insert(rated.find('>'), " data-v=\"" + number(s.efficiency()) + "\"");
    out << "<td>" << escape(s.memory) << "</td><td>" << s.executions << "</td>" << rated;
    const std::string sectors = buffer ? per_request(s.sectors, s.ideal_sectors, s.requests) : "";
    const std::string wavefronts = buffer ? "" : per_request(s.wavefronts, s.ideal_wavefronts, s.requests);
    out << keyed_cell(sectors.empty() ? "" : number(s.sectors_per_request()), sectors)
        << keyed_cell(wavefronts.empty() ? "" : number(s.wavefronts_per_request()), wavefronts)
        << "<td></td><td></td><td></td></tr>\n";
  }
  for (std::size_t i = 0; i < r.branches.size(); ++i) {
    const BranchSite& b = r.branches[i];
    const bool loop = b.kind == BranchSite::Kind::Loop;
    row_start(out, b.kernel, finding_id("branch", i), b.loc, source, loop ? "loop" : "if_");
    out << "<td></td><td>" << b.executions << "</td><td></td><td></td><td></td>"
        << keyed_cell(number(b.divergent_share()), percent(b.divergent_share()) +
                                                        (loop ? " (" + std::to_string(b.iterations) + " iterations)"
                                                              : std::string()))
        << "<td>" << b.idle_lane_steps << "</td><td>" << b.grid_tail_lane_steps << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace sprig::sim::html
