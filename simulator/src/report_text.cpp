// The text report for the terminal: a summary, the kernels, then what must be fixed (races,
// errors, warnings), then the worst sites first — uncoalesced accesses and bank conflicts,
// idle branches and loops, lines with low SIMT efficiency — each with file:line and the
// line's source text.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "branch_summary.hpp"
#include "source_lines.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

namespace {

constexpr std::size_t worst_shown = 10;

std::string format(const char* pattern, ...) {
  char buffer[512];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(buffer, sizeof buffer, pattern, args);
  va_end(args);
  return buffer;
}

std::string where(const SourceLoc& loc) {
  return loc.known() ? display_path(loc.file) + ":" + std::to_string(loc.line) : std::string("<unknown line>");
}

std::string invocation(const std::array<std::uint32_t, 3>& id) {
  return format("(%u, %u, %u)", id[0], id[1], id[2]);
}

// "      | out[i] = in[i] * 3u;" under a site, when the source can be read.
void print_source(std::ostream& out, const SourceLoc& loc) {
  if (auto text = source_line(loc.file, loc.line); text && !text->empty()) out << "      | " << *text << "\n";
}

void print_diagnostics(std::ostream& out, const char* title, const std::vector<Diagnostic>& list) {
  if (list.empty()) return;
  out << title << " (" << list.size() << "):\n";
  for (const Diagnostic& d : list) {
    out << "  " << where(d.loc) << ": " << d.message << "\n";
    print_source(out, d.loc);
    out << "      [" << problem_name(d.problem) << "; kernel '" << d.kernel << "'; first at invocation "
        << invocation(d.invocation);
    if (d.occurrences > 1) out << "; " << d.occurrences << " times";
    out << "]\n";
  }
}

void print_kernels(std::ostream& out, const Report& r) {
  if (r.kernels.empty()) return;
  std::size_t width = 6;
  for (const KernelStats& k : r.kernels) width = std::max(width, k.name.size());
  out << "kernels:\n";
  for (const KernelStats& k : r.kernels) {
    out << format("  %-*s %6llu launches %11llu invocations %13llu lane-ops  SIMT efficiency %5.1f%%  %9.2f ms\n",
                  int(width), k.name.c_str(), (unsigned long long)k.launches, (unsigned long long)k.invocations,
                  (unsigned long long)k.lane_operations, 100.0 * k.simt_efficiency(), k.host_ms);
    const IdleLaneSteps& i = k.idle;
    if (i.total() || k.branch_executions)
      out << format("  %-*s idle lane-steps: branch %llu, loop %llu, returned %llu, grid tail %llu, partial "
                    "subgroup %llu; branch executions %llu, %.1f%% divergent\n",
                    int(width), "", (unsigned long long)i.branch, (unsigned long long)i.loop,
                    (unsigned long long)i.returned, (unsigned long long)i.grid_tail,
                    (unsigned long long)i.partial_subgroup, (unsigned long long)k.branch_executions,
                    100.0 * k.divergent_share());
  }
}

void print_races(std::ostream& out, const Report& r) {
  if (r.races.empty()) return;
  out << "races (" << r.races.size() << "):\n";
  for (const Race& race : r.races) {
    out << "  " << race_name(race.kind) << " on " << space_name(race.space) << " '" << race.memory << "' (kernel '"
        << race.kernel << "'), " << race.count << " time" << (race.count == 1 ? "" : "s") << ", e.g. byte "
        << race.byte_offset << ":\n";
    out << "    first  " << where(race.first) << " by invocation " << invocation(race.first_invocation) << "\n";
    print_source(out, race.first);
    out << "    second " << where(race.second) << " by invocation " << invocation(race.second_invocation) << "\n";
    print_source(out, race.second);
  }
}

// Only the worst few entries are listed; say how many were left out so none is hidden silently.
void print_not_shown(std::ostream& out, std::size_t count, const char* noun, const char* nouns, const char* what) {
  if (count > worst_shown)
    out << "  " << count - worst_shown << " more " << (count - worst_shown == 1 ? noun : nouns) << " " << what
        << " not shown (all are in the JSON and HTML reports)\n";
}

void print_accesses(std::ostream& out, const Report& r) {
  std::vector<const AccessSite*> sites;
  for (const AccessSite& s : r.accesses) sites.push_back(&s);
  std::stable_sort(sites.begin(), sites.end(),
                   [](const AccessSite* a, const AccessSite* b) { return a->efficiency() < b->efficiency(); });
  const auto imperfect = std::count_if(sites.begin(), sites.end(), [](auto* s) { return s->efficiency() < 1.0; });
  if (sites.empty()) return;
  out << format("memory accesses (%zu sites, %lld below 100%%; sectors of %u bytes, lines of %u, %u banks of %u "
                "bytes), worst first:\n",
                sites.size(), (long long)imperfect, r.sector_bytes, r.line_bytes, r.banks, r.bank_bytes);
  for (std::size_t i = 0; i < sites.size() && i < worst_shown && sites[i]->efficiency() < 1.0; ++i) {
    const AccessSite& s = *sites[i];
    out << "  " << where(s.loc) << "  " << access_name(s.kind) << " " << space_name(s.space) << " '" << s.memory
        << "' (kernel '" << s.kernel << "')\n";
    print_source(out, s.loc);
    if (s.space == MemorySpace::Buffer)
      out << format("      efficiency %5.1f%%: %.2f sectors per request (ideal %.2f), %.2f lines, %llu requests, "
                    "%llu bytes\n",
                    100.0 * s.efficiency(), s.sectors_per_request(),
                    s.requests ? double(s.ideal_sectors) / double(s.requests) : 0.0,
                    s.requests ? double(s.lines) / double(s.requests) : 0.0, (unsigned long long)s.requests,
                    (unsigned long long)s.bytes);
    else
      out << format("      efficiency %5.1f%%: %.2f wavefronts per request (ideal %.2f), %llu requests\n",
                    100.0 * s.efficiency(), s.wavefronts_per_request(),
                    s.requests ? double(s.ideal_wavefronts) / double(s.requests) : 0.0,
                    (unsigned long long)s.requests);
  }
  print_not_shown(out, std::size_t(imperfect), "site", "sites", "below 100%");
  const std::size_t perfect = sites.size() - std::size_t(imperfect);
  if (perfect > 0)
    out << "  " << perfect << " more site" << (perfect == 1 ? " is" : "s are")
        << " fully coalesced (buffers) or conflict-free (shared memory)\n";
}

void print_branches(std::ostream& out, const Report& r) {
  std::vector<const BranchSite*> sites;
  for (const BranchSite& b : r.branches)
    if (b.idle_lane_steps + b.grid_tail_lane_steps > 0) sites.push_back(&b);
  if (sites.empty()) return;
  std::stable_sort(sites.begin(), sites.end(), [](const BranchSite* a, const BranchSite* b) {
    return a->idle_lane_steps + a->grid_tail_lane_steps > b->idle_lane_steps + b->grid_tail_lane_steps;
  });
  out << "branches and loops that idle lanes, worst first:\n";
  for (std::size_t i = 0; i < sites.size() && i < worst_shown; ++i) {
    const BranchSite& b = *sites[i];
    out << "  " << where(b.loc) << "  " << (b.kind == BranchSite::Kind::If ? "if_" : "loop") << " (kernel '"
        << b.kernel << "')\n";
    print_source(out, b.loc);
    out << format("      %llu idle lane-steps (%s), %llu of lanes beyond the grid; %s\n",
                  (unsigned long long)b.idle_lane_steps,
                  b.kind == BranchSite::Kind::If ? "masked by this branch" : "trip-count imbalance",
                  (unsigned long long)b.grid_tail_lane_steps, branch_executions(b).c_str());
  }
  print_not_shown(out, sites.size(), "branch or loop", "branches and loops", "with idle lanes");
}

void print_lines(std::ostream& out, const Report& r) {
  std::vector<const LineStats*> lines;
  for (const LineStats& l : r.lines)
    if (l.simt_efficiency() < 1.0) lines.push_back(&l);
  if (lines.empty()) return;
  std::stable_sort(lines.begin(), lines.end(),
                   [](const LineStats* a, const LineStats* b) { return a->simt_efficiency() < b->simt_efficiency(); });
  out << "lines with idle lanes, lowest SIMT efficiency first:\n";
  for (std::size_t i = 0; i < lines.size() && i < worst_shown; ++i) {
    const LineStats& l = *lines[i];
    out << format("  %5.1f%%  ", 100.0 * l.simt_efficiency()) << where(l.loc) << "  (kernel '" << l.kernel << "', "
        << l.issued << " operations issued)\n";
    print_source(out, l.loc);
  }
  print_not_shown(out, lines.size(), "line", "lines", "with idle lanes");
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const Report& r) {
  out << "sprig simulator: " << r.launches << " launch" << (r.launches == 1 ? "" : "es") << ", " << r.lane_operations
      << " lane-operations, " << r.races.size() << " race" << (r.races.size() == 1 ? "" : "s") << ", "
      << r.errors.size() << " error" << (r.errors.size() == 1 ? "" : "s") << ", " << r.warnings.size() << " warning"
      << (r.warnings.size() == 1 ? "" : "s") << "\n";
  print_kernels(out, r);
  print_races(out, r);
  print_diagnostics(out, "errors", r.errors);
  print_diagnostics(out, "warnings", r.warnings);
  print_accesses(out, r);
  print_branches(out, r);
  print_lines(out, r);
  return out;
}

std::string to_text(const Report& report) {
  std::ostringstream out;
  out << report;
  return out.str();
}

}  // namespace sprig::sim
