// The report as one self-contained HTML page: nothing is fetched, the style and the script
// are inline (report_page/page.css and page.js, embedded at build time). A summary; the
// kernels, races, errors, warnings and sites as tables the script sorts by any column and
// filters by kernel; and the source view (report_html_source.cpp), to which every finding
// links: following a race's link highlights both of its lines and both invocations.
#include <set>
#include <sstream>

#include "report_html.hpp"
#include "report_page_assets.hpp"
#include "source_lines.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

namespace {

using html::escape;
using html::keyed_cell;

// Every kernel the report names, those launched first, for the kernel filter.
std::vector<std::string> kernel_names(const Report& r) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  auto add = [&](const std::string& name) {
    if (seen.insert(name).second) names.push_back(name);
  };
  for (const KernelStats& k : r.kernels) add(k.name);
  for (const Race& race : r.races) add(race.kernel);
  for (const auto* list : {&r.errors, &r.warnings})
    for (const Diagnostic& d : *list) add(d.kernel);
  for (const AccessSite& s : r.accesses) add(s.kernel);
  for (const BranchSite& b : r.branches) add(b.kernel);
  return names;
}

std::string row(const std::string& kernel, const std::string& finding = "") {
  std::string tr = "<tr data-kernel=\"" + escape(kernel) + "\"";
  if (!finding.empty()) tr += " data-finding=\"" + finding + "\"";
  return tr + ">";
}

// A location's cell: the link to its source row, and the line's text below it.
std::string location_cell(const SourceLoc& loc, const html::SourceView& source, bool with_text) {
  std::string content = source.link(loc);
  if (with_text) content += "<br><code>" + escape(source_line(loc.file, loc.line).value_or("")) + "</code>";
  return keyed_cell(loc.known() ? display_path(loc.file) + ":" + std::to_string(loc.line) : "", content);
}

void write_controls(std::ostringstream& out, const Report& r, const html::SourceView& source) {
  // Hidden until the script runs: without it there is nothing to filter with.
  out << "<div id=\"controls\" hidden><label>Kernel: <select id=\"kernel-filter\">"
         "<option value=\"\">all kernels</option>";
  for (const std::string& name : kernel_names(r))
    out << "<option value=\"" << escape(name) << "\">" << escape(name) << "</option>";
  out << "</select></label> <span id=\"filter-status\"></span> <span class=\"hint\">Click a column's header to sort "
         "by it, a line to see it in the source.</span></div>\n";
  out << "<nav><a href=\"#kernels\">kernels</a> <a href=\"#races\">races</a> <a href=\"#errors\">errors</a> "
         "<a href=\"#warnings\">warnings</a> <a href=\"#sites\">sites</a>"
      << (source.empty() ? "" : " <a href=\"#source\">source</a>") << "</nav>\n";
}

void write_kernels(std::ostringstream& out, const Report& r) {
  out << "<h2 id=\"kernels\">Kernels</h2>\n<table class=\"kernels\"><thead><tr><th>kernel</th>";
  // Counts and costs sort largest first on the first click, the efficiency worst first.
  for (const char* figure : {"launches", "invocations", "lane-operations"})
    out << "<th data-first=\"descending\">" << figure << "</th>";
  out << "<th>SIMT efficiency</th>";
  for (const char* figure :
       {"divergent branch executions", "idle: branch", "loop", "returned", "grid tail", "partial subgroup", "host ms"})
    out << "<th data-first=\"descending\">" << figure << "</th>";
  out << "</tr></thead>\n<tbody>\n";
  for (const KernelStats& k : r.kernels)
    out << row(k.name) << "<td>" << escape(k.name) << "</td><td>" << k.launches << "</td><td>" << k.invocations
        << "</td><td>" << k.lane_operations << "</td>"
        << html::rated_cell(k.simt_efficiency(), html::percent(k.simt_efficiency()), "simt") << "<td>"
        << html::percent(k.divergent_share()) << "</td><td>" << k.idle.branch << "</td><td>" << k.idle.loop
        << "</td><td>" << k.idle.returned << "</td><td>" << k.idle.grid_tail << "</td><td>" << k.idle.partial_subgroup
        << "</td><td>" << k.host_ms << "</td></tr>\n";
  out << "</tbody></table>\n";
}

void write_races(std::ostringstream& out, const Report& r, const html::SourceView& source) {
  out << "<h2 id=\"races\">Races</h2>\n";
  if (r.races.empty()) {
    out << "<p class=\"clean\">No race.</p>\n";
    return;
  }
  out << "<table class=\"races\"><thead><tr><th>kind</th><th>kernel</th><th>memory</th><th>first access</th>"
         "<th>second access</th><th>example invocations</th><th data-first=\"descending\">count</th></tr></thead>\n"
         "<tbody>\n";
  for (std::size_t i = 0; i < r.races.size(); ++i) {
    const Race& race = r.races[i];
    out << row(race.kernel, html::finding_id("race", i)) << "<td>" << race_name(race.kind) << "</td><td>"
        << escape(race.kernel) << "</td><td>" << space_name(race.space) << " '" << escape(race.memory) << "'</td>"
        << location_cell(race.first, source, true) << location_cell(race.second, source, true) << "<td>"
        << html::invocation(race.first_invocation) << " then " << html::invocation(race.second_invocation)
        << "</td><td>" << race.count << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

void write_diagnostics(std::ostringstream& out, const char* title, const char* kind,
                       const std::vector<Diagnostic>& list, const html::SourceView& source) {
  out << "<h2 id=\"" << kind << "s\">" << title << "</h2>\n";
  if (list.empty()) {
    out << "<p class=\"clean\">None.</p>\n";
    return;
  }
  out << "<table class=\"diagnostics\"><thead><tr><th>problem</th><th>kernel</th><th>where</th><th>message</th>"
         "<th>first invocation</th><th data-first=\"descending\">occurrences</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Diagnostic& d = list[i];
    out << row(d.kernel, html::finding_id(kind, i)) << "<td>" << problem_name(d.problem) << "</td><td>"
        << escape(d.kernel) << "</td>" << location_cell(d.loc, source, false) << "<td>" << escape(d.message)
        << "</td><td>" << html::invocation(d.invocation) << "</td><td>" << d.occurrences << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

}  // namespace

std::string to_html(const Report& r, const std::string& title) {
  const html::SourceView source(r);
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << escape(title)
      << "</title>\n<style>\n" << html::kPageCss << "</style></head><body>\n<h1>" << escape(title) << "</h1>\n";
  out << "<p class=\"" << (r.clean() ? "clean" : "dirty") << "\">" << r.launches << " launches, "
      << r.lane_operations << " lane-operations, " << r.races.size() << " races, " << r.errors.size() << " errors, "
      << r.warnings.size() << " warnings. Sectors of " << r.sector_bytes << " bytes, lines of " << r.line_bytes
      << ", " << r.banks << " banks of " << r.bank_bytes << " bytes.</p>\n";
  write_controls(out, r, source);
  write_kernels(out, r);
  write_races(out, r, source);
  write_diagnostics(out, "Errors", "error", r.errors, source);
  write_diagnostics(out, "Warnings", "warning", r.warnings, source);
  html::write_sites(out, r, source);
  source.write(out);
  out << "<script>\n" << html::kPageJs << "</script>\n</body></html>\n";
  return out.str();
}

}  // namespace sprig::sim
