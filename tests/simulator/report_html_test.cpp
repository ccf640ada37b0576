// The HTML page's structure on a report built by hand: every finding links to its source
// line, every link lands on a row of the source view (in an unreadable file too), a race's
// notes name its two invocations, the sites table has a row per access site, branch and
// loop with sort keys, the kernel filter offers every kernel, and the style and script are
// inline. tests/simulator/browser checks the same page's behaviour in a real browser.
#include <cstddef>
#include <map>
#include <set>
#include <source_location>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sprig/simulator/report_formats.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

SourceLoc here(std::source_location l = std::source_location::current()) { return l; }

const SourceLoc write_line = here();  // tile[lane] = v, with no barrier after it
const SourceLoc read_line = here();   // v = tile[lane + 1u]
const SourceLoc strided_line = here();  // out[i * 33u] = v
const SourceLoc guard_line = here();  // if_(i < n)

SourceLoc unreadable(std::uint32_t line) {
  SourceLoc loc;
  loc.file = "/nonexistent/sprig/other_kernel.cpp";
  loc.line = line;
  return loc;
}

sim::Report report() {
  sim::Report r;
  r.launches = 2;
  sim::KernelStats a, b;
  a.name = "tile <&\"quoted\">";
  b.name = "strided";
  r.kernels = {a, b};

  sim::Race race;
  race.kernel = a.name;
  race.memory = "tile";
  race.space = sim::MemorySpace::Shared;
  race.kind = sim::RaceKind::ReadAfterWrite;
  race.first = write_line;
  race.second = read_line;
  race.first_invocation = {33, 0, 0};
  race.second_invocation = {2, 1, 0};
  race.count = 31;
  r.races = {race};

  sim::AccessSite site;
  site.kernel = "strided";
  site.loc = strided_line;
  site.memory = "out";
  site.kind = sim::AccessKind::Write;
  site.bytes_per_lane = 4;
  site.executions = 8;
  site.requests = 8;
  site.sectors = 256;
  site.ideal_sectors = 32;
  sim::AccessSite shared = site;
  shared.kernel = a.name;
  shared.loc = read_line;
  shared.memory = "tile";
  shared.space = sim::MemorySpace::Shared;
  shared.kind = sim::AccessKind::Read;
  shared.wavefronts = 64;
  shared.ideal_wavefronts = 8;
  r.accesses = {site, shared};

  sim::BranchSite guard;
  guard.kernel = "strided";
  guard.loc = guard_line;
  guard.executions = 4;
  guard.divergent = 1;
  guard.idle_lane_steps = 12;
  sim::BranchSite far = guard;
  far.loc = unreadable(40);
  far.kind = sim::BranchSite::Kind::Loop;
  far.iterations = 9;
  r.branches = {guard, far};

  sim::Diagnostic oob;
  oob.kernel = "strided";
  oob.loc = unreadable(7);
  oob.message = "write of 'out' at element 300";
  r.errors = {oob};
  return r;
}

// The values of every `attribute="..."` in `html`.
std::vector<std::string> values(const std::string& html, const std::string& attribute) {
  std::vector<std::string> found;
  const std::string key = " " + attribute + "=\"";
  for (auto at = html.find(key); at != std::string::npos; at = html.find(key, at + 1)) {
    const auto begin = at + key.size();
    found.push_back(html.substr(begin, html.find('"', begin) - begin));
  }
  return found;
}

// The element whose tag opens with `start` (up to its end tag `end`).
std::string element(const std::string& html, const std::string& start, const std::string& end) {
  const auto at = html.find(start);
  if (at == std::string::npos) return {};
  return html.substr(at, html.find(end, at) + end.size() - at);
}

// The id of the source row of `loc`'s line ("src-<file>-<line>"); the test's lines and the
// unreadable file's are different numbers.
std::string anchor_of(const std::string& html, const SourceLoc& loc) {
  const std::string suffix = "-" + std::to_string(loc.line);
  for (const std::string& id : values(html, "id"))
    if (id.rfind("src-", 0) == 0 && id.size() > suffix.size() && id.ends_with(suffix)) return id;
  return {};
}

// Every link stays within the page and lands on exactly one element; returns how many there are.
std::size_t check_links(const std::string& html) {
  const std::vector<std::string> ids = values(html, "id");
  const std::set<std::string> unique(ids.begin(), ids.end());
  CHECK(unique.size() == ids.size());
  const std::vector<std::string> hrefs = values(html, "href");
  for (const std::string& href : hrefs) {
    INFO(href);
    REQUIRE(href.rfind('#', 0) == 0);  // nothing is fetched
    CHECK(unique.count(href.substr(1)) == 1);
  }
  return hrefs.size();
}

}  // namespace

TEST_CASE("the HTML page: ids are unique and every link lands on the page", "[report-formats][html]") {
  const std::string html = sim::to_html(report());
  const std::size_t links = check_links(html);
  CHECK(links >= 5 + 5);  // the navigation, and a link per finding's line
  // (This file is in the page's source view, escaped: these strings with quotes are not.)
  CHECK(html.find(" src=\"") == std::string::npos);
  CHECK(html.find("=\"http") == std::string::npos);
}

TEST_CASE("the HTML page: a race links to both of its lines, whose notes name both invocations",
          "[report-formats][html]") {
  const std::string html = sim::to_html(report());
  const std::string first = anchor_of(html, write_line), second = anchor_of(html, read_line);
  REQUIRE_FALSE(first.empty());
  REQUIRE_FALSE(second.empty());
  const std::string row =
      element(html, "<tr data-kernel=\"tile &lt;&amp;&quot;quoted&quot;&gt;\" data-finding=\"race-0\">", "</tr>");
  REQUIRE_FALSE(row.empty());
  CHECK_THAT(row, Contains("<a class=\"src\" href=\"#" + first + "\" title=\"") &&
                      Contains("<a class=\"src\" href=\"#" + second + "\" title=\""));
  CHECK(row.find(first) < row.find(second));
  CHECK_THAT(row, Contains("(33, 0, 0) then (2, 1, 0)</td><td>31</td>"));
  CHECK_THAT(element(html, "<tr id=\"" + first + "\"", "</tr>"),
             Contains("data-finding=\"race-0\">RAW race on shared 'tile': first access, by invocation (33, 0, "
                      "0)</div>"));
  CHECK_THAT(element(html, "<tr id=\"" + second + "\"", "</tr>"),
             Contains("data-finding=\"race-0\">RAW race on shared 'tile': second access, by invocation (2, 1, "
                      "0)</div>") &&
                 Contains("data-finding=\"access-1\">read shared 'tile' 12.5%: 8.00 wavefronts/request"));
}

TEST_CASE("the HTML page: findings in a file that cannot be read still have rows to land on",
          "[report-formats][html]") {
  const std::string html = sim::to_html(report());
  const std::string section = element(html, "<h2>/nonexistent/sprig/other_kernel.cpp</h2>", "</section>");
  CHECK_THAT(section, Contains("<p>(the source file cannot be read here)</p>"));
  CHECK_THAT(section, Contains("<td class=\"n\">7</td>") && Contains("<td class=\"n\">40</td>"));
  CHECK_THAT(section, Contains("out of bounds: write of 'out' at element 300") &&
                          Contains("loop: 4 executions (9 iterations), 25.0% divergent, 12 idle lane-steps"));
  const std::string errors = element(html, "<table class=\"diagnostics\">", "</table>");
  CHECK_THAT(errors, Contains("data-finding=\"error-0\"") &&
                         Contains("title=\"/nonexistent/sprig/other_kernel.cpp:7\">other_kernel.cpp:7</a>"));
}

TEST_CASE("the HTML page: a sortable row per access site, branch and loop, with sort keys", "[report-formats][html]") {
  const std::string html = sim::to_html(report());
  const std::string sites = element(html, "<table class=\"sites\">", "</table>");
  REQUIRE_FALSE(sites.empty());
  CHECK_THAT(sites, Contains("<thead>") && Contains("<th>efficiency</th>") &&
                        Contains("<th data-first=\"descending\">idle lane-steps</th>"));
  std::map<std::string, int> findings;
  for (const std::string& finding : values(sites, "data-finding")) ++findings[finding];
  CHECK(findings == std::map<std::string, int>{{"access-0", 1}, {"access-1", 1}, {"branch-0", 1}, {"branch-1", 1}});
  // The strided write: 12.5%, 32 sectors per request where 4 would do; keys for sorting.
  const std::string strided = element(sites, "<tr data-kernel=\"strided\" data-finding=\"access-0\">", "</tr>");
  CHECK_THAT(strided, Contains("<td>write buffer</td><td>out</td><td>8</td>") &&
                          Contains("data-v=\"0.125\">12.5%</td>") &&
                          Contains("<td data-v=\"32\">32.00 (ideal 4.00)</td><td data-v=\"\"></td>"));
  CHECK_THAT(strided, Contains("<td class=\"snippet\"><code>const SourceLoc strided_line = here();  // out[i * 33u] "
                               "= v</code>"));
  CHECK_THAT(strided, Contains("\">report_html_test.cpp:" + std::to_string(strided_line.line) + "</a>"));
  const std::string bank = element(sites, "data-finding=\"access-1\">", "</tr>");
  CHECK_THAT(bank, Contains("<td data-v=\"\"></td><td data-v=\"8\">8.00 (ideal 1.00)</td>"));
  const std::string loop = element(sites, "data-finding=\"branch-1\">", "</tr>");
  CHECK_THAT(loop, Contains("<td>loop</td>") && Contains("<td data-v=\"0.25\">25.0% (9 iterations)</td><td>12</td>"));
}

TEST_CASE("the HTML page: the kernel filter offers every kernel, and the style and script are inline",
          "[report-formats][html]") {
  const std::string html = sim::to_html(report());
  const std::string filter = element(html, "<select id=\"kernel-filter\">", "</select>");
  CHECK(filter == "<select id=\"kernel-filter\"><option value=\"\">all kernels</option><option value=\"tile "
                  "&lt;&amp;&quot;quoted&quot;&gt;\">tile &lt;&amp;&quot;quoted&quot;&gt;</option><option "
                  "value=\"strided\">strided</option></select>");
  CHECK_THAT(html, Contains("<div id=\"controls\" hidden>"));  // shown by the script
  const auto script = html.find("<script>\n");
  REQUIRE(script != std::string::npos);
  CHECK(html.find("</script>") == html.rfind("</script>"));
  CHECK(html.find("<script", script + 1) == std::string::npos);
  CHECK(html.find("</script>\n</body></html>\n") != std::string::npos);
  CHECK_THAT(html.substr(script), Contains("function sortBy(th)") && Contains("function follow(link)"));
  CHECK_THAT(element(html, "<style>", "</style>"), Contains("tr.hl"));
  for (const std::string& kernel : values(html, "data-kernel"))
    CHECK((kernel == "strided" || kernel == "tile &lt;&amp;&quot;quoted&quot;&gt;"));
}

TEST_CASE("the HTML page of an empty report has its tables' places and no source view", "[report-formats][html]") {
  const std::string html = sim::to_html(sim::Report{});
  CHECK_THAT(html, Contains("<h2 id=\"sites\">Sites</h2>\n<p>No memory access, branch or loop was measured.</p>"));
  CHECK_THAT(html, Contains("<p class=\"clean\">No race.</p>") && !Contains("id=\"source\"") &&
                       !Contains("href=\"#source\""));
  check_links(html);
  CHECK(values(html, "data-finding").empty());
}
