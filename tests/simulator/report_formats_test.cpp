// The report formats on a report built by hand, so that every figure is known exactly and
// nothing depends on the analyses: the text report (figures, source text, worst first,
// aligned columns), the JSON (every field with its exact value), the HTML page (escaped
// source, colours, tables, well-formed), save_report, and require_clean's rule.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <source_location>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sprig/simulator/report_formats.hpp"

using namespace sprig;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

// The lines the report points at are these lines of this file, so their text is readable.
SourceLoc here(std::source_location l = std::source_location::current()) { return l; }

const SourceLoc strided_store = here();   // out[(i * 33u) % 256u] = i; <strided & "uncoalesced">
const SourceLoc tile_read = here();       // tile[lane * 32u]: a 32-way bank conflict
const SourceLoc tile_write = here();      // tile[lane] = v, with no barrier after it
const SourceLoc half_read = here();       // in[i * 2u]: half of every sector wasted
const SourceLoc mild_read = here();       // in[i + 1u]: one sector too many
const SourceLoc fine_read = here();       // in[i]: fully coalesced
const SourceLoc guard_if = here();        // if_(i < n): a divergent grid-tail guard
const SourceLoc uniform_if = here();      // if_(i < 32u): uniform per subgroup
const SourceLoc ragged_loop = here();     // for_(0u, i): the trip count is the lane index
const SourceLoc racing_write = here();    // halves[i / 2u] = i
const SourceLoc bad_write = here();       // out[i + 256u] = 0u: out of bounds
const SourceLoc divide = here();          // 100u / (i % 4u)

const std::string strided_text =
    R"(const SourceLoc strided_store = here();   // out[(i * 33u) % 256u] = i; <strided & "uncoalesced">)";

// A location in a file that does not exist: reports must do without its text.
SourceLoc unreadable() {
  SourceLoc loc;
  loc.file = "/nonexistent/sprig/kernel.cpp";
  loc.line = 12;
  loc.column = 5;
  return loc;
}

std::string at(const SourceLoc& loc) { return "report_formats_test.cpp:" + std::to_string(loc.line); }

sim::AccessSite buffer_site(SourceLoc loc, sim::AccessKind kind, const char* memory, std::uint64_t requests,
                            std::uint64_t sectors, std::uint64_t ideal_sectors) {
  sim::AccessSite s;
  s.kernel = "transpose";
  s.loc = loc;
  s.memory = memory;
  s.space = sim::MemorySpace::Buffer;
  s.kind = kind;
  s.bytes_per_lane = 4;
  s.executions = requests;
  s.requests = requests;
  s.active_lanes = 16 * requests;
  s.bytes = 4 * s.active_lanes;
  s.sectors = sectors;
  s.lines = sectors / 2;
  s.ideal_sectors = ideal_sectors;
  return s;
}

sim::Diagnostic diagnostic(sim::Problem problem, bool is_error, SourceLoc loc, const char* message,
                           std::array<std::uint32_t, 3> invocation, std::uint64_t occurrences) {
  sim::Diagnostic d;
  d.problem = problem;
  d.is_error = is_error;
  d.kernel = "transpose";
  d.loc = loc;
  d.message = message;
  d.invocation = invocation;
  d.occurrences = occurrences;
  return d;
}

// Two kernels, two races, two errors, a warning, fifteen access sites (twelve below 100%),
// three branches and three lines.
sim::Report hand_built_report() {
  sim::Report r;
  r.launches = 3;
  r.lane_operations = 12640;
  r.sector_bytes = 64;
  r.line_bytes = 256;
  r.request_lanes = 16;
  r.banks = 16;
  r.bank_bytes = 8;

  sim::KernelStats transpose;
  transpose.name = "transpose";
  transpose.hash = 0x0123456789ABCDEFull;  // beyond 2^53: must survive JSON exactly
  transpose.launches = 2;
  transpose.invocations = 512;
  transpose.lane_operations = 12000;
  transpose.issued = 500;  // 500 x 32 lanes = 16000 lane-steps: 75% SIMT efficiency
  transpose.subgroup_size = 32;
  transpose.host_ms = 1.25;
  transpose.idle = {1000, 2000, 300, 400, 300};
  transpose.branch_executions = 40;
  transpose.divergent_branch_executions = 10;
  sim::KernelStats tidy;
  tidy.name = "tidy";
  tidy.hash = 7;
  tidy.launches = 1;
  tidy.invocations = 64;
  tidy.lane_operations = 640;
  tidy.issued = 20;
  tidy.subgroup_size = 32;
  tidy.host_ms = 0.5;
  r.kernels = {transpose, tidy};

  sim::Race waw;
  waw.kernel = "transpose";
  waw.memory = "halves";
  waw.space = sim::MemorySpace::Buffer;
  waw.kind = sim::RaceKind::WriteAfterWrite;
  waw.first = racing_write;
  waw.second = racing_write;
  waw.first_invocation = {0, 0, 0};
  waw.second_invocation = {1, 0, 0};
  waw.byte_offset = 0;
  waw.count = 128;
  sim::Race raw;
  raw.kernel = "transpose";
  raw.memory = "tile";
  raw.space = sim::MemorySpace::Shared;
  raw.kind = sim::RaceKind::ReadAfterWrite;
  raw.first = tile_write;
  raw.second = tile_read;
  raw.first_invocation = {33, 0, 0};
  raw.second_invocation = {2, 1, 0};
  raw.byte_offset = 132;
  raw.count = 31;
  r.races = {waw, raw};

  r.errors = {diagnostic(sim::Problem::OutOfBounds, true, bad_write, "write of 'out' at element 300 <beyond 256>",
                         {44, 0, 0}, 44),
              diagnostic(sim::Problem::DivisionByZero, true, divide, "integer division by zero", {0, 0, 0}, 64)};
  r.warnings = {diagnostic(sim::Problem::UninitializedSharedRead, false, unreadable(),
                           "read of shared 'tile' before any write", {5, 0, 0}, 1)};

  // In order of first execution, not of efficiency: the formats sort.
  sim::AccessSite strided = buffer_site(strided_store, sim::AccessKind::Write, "out", 16, 256, 32);  // 12.5%
  strided.executions = 8;
  strided.lines = 80;
  sim::AccessSite conflicted;  // 3.125%
  conflicted.kernel = "transpose";
  conflicted.loc = tile_read;
  conflicted.memory = "tile";
  conflicted.space = sim::MemorySpace::Shared;
  conflicted.kind = sim::AccessKind::Read;
  conflicted.bytes_per_lane = 4;
  conflicted.executions = 8;
  conflicted.requests = 8;
  conflicted.active_lanes = 256;
  conflicted.bytes = 1024;
  conflicted.wavefronts = 256;
  conflicted.ideal_wavefronts = 8;
  sim::AccessSite tile_store = conflicted;  // conflict-free
  tile_store.loc = tile_write;
  tile_store.kind = sim::AccessKind::Write;
  tile_store.wavefronts = 8;
  r.accesses.push_back(buffer_site(fine_read, sim::AccessKind::Read, "in", 8, 32, 32));  // 100%
  r.accesses.push_back(strided);
  r.accesses.push_back(buffer_site(half_read, sim::AccessKind::Read, "in", 4, 32, 16));  // 50%
  for (int i = 0; i < 9; ++i)
    r.accesses.push_back(buffer_site(mild_read, sim::AccessKind::Read, "in", 10, 50, 40));  // 80%
  r.accesses.push_back(conflicted);
  r.accesses.push_back(tile_store);
  r.accesses.push_back(buffer_site(unreadable(), sim::AccessKind::Atomic, "counter", 2, 2, 2));  // 100%

  sim::BranchSite guard;
  guard.kernel = "transpose";
  guard.loc = guard_if;
  guard.kind = sim::BranchSite::Kind::If;
  guard.executions = 40;
  guard.divergent = 10;
  guard.idle_lane_steps = 1000;
  guard.grid_tail_lane_steps = 400;
  sim::BranchSite uniform = guard;
  uniform.loc = uniform_if;
  uniform.divergent = 0;
  uniform.idle_lane_steps = 0;
  uniform.grid_tail_lane_steps = 0;
  sim::BranchSite loop;
  loop.kernel = "transpose";
  loop.loc = ragged_loop;
  loop.kind = sim::BranchSite::Kind::Loop;
  loop.executions = 64;
  loop.divergent = 32;
  loop.iterations = 640;
  loop.idle_lane_steps = 2000;
  r.branches = {guard, uniform, loop};

  auto line = [](SourceLoc loc, std::uint64_t issued, std::uint64_t lane_operations) {
    sim::LineStats l;
    l.kernel = "transpose";
    l.loc = loc;
    l.loc.column = 0;
    l.issued = issued;
    l.lane_operations = lane_operations;
    l.subgroup_size = 32;
    return l;
  };
  // SIMT efficiency 50%, 100% and 25%.
  r.lines = {line(strided_store, 100, 1600), line(fine_read, 50, 1600), line(ragged_loop, 200, 1600)};
  return r;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The line of `text` that contains `what`.
std::string line_with(const std::string& text, const std::string& what) {
  const auto at = text.find(what);
  if (at == std::string::npos) return {};
  const auto begin = text.rfind('\n', at) + 1;  // npos + 1 == 0 on the first line
  return text.substr(begin, text.find('\n', at) - begin);
}

void check_location(const json& j, const SourceLoc& loc) {
  CHECK(j["file"] == loc.file);
  CHECK(j["line"] == loc.line);
  CHECK(j["column"] == loc.column);
  CHECK(j.contains("text"));
}

}  // namespace

TEST_CASE("the text report: summary, kernels in aligned columns, races and diagnostics with source text",
          "[report-formats]") {
  const std::string text = sim::to_text(hand_built_report());
  CHECK(text.rfind("sprig simulator: 3 launches, 12640 lane-operations, 2 races, 2 errors, 1 warning\n", 0) == 0);
  std::ostringstream streamed;
  streamed << hand_built_report();
  CHECK(streamed.str() == text);

  const std::string transpose = line_with(text, "  transpose ");
  const std::string tidy = line_with(text, "  tidy ");
  CHECK_THAT(transpose, Contains("2 launches") && Contains("512 invocations") && Contains("12000 lane-ops") &&
                            Contains("SIMT efficiency  75.0%") && Contains("1.25 ms"));
  CHECK_THAT(tidy, Contains("SIMT efficiency 100.0%") && Contains("0.50 ms"));
  CHECK(transpose.find("launches") == tidy.find("launches"));
  CHECK(transpose.find("SIMT") == tidy.find("SIMT"));
  CHECK(transpose.size() == tidy.size());
  CHECK_THAT(text, Contains("idle lane-steps: branch 1000, loop 2000, returned 300, grid tail 400, partial subgroup "
                            "300; branch executions 40, 25.0% divergent"));

  CHECK_THAT(text, Contains("WAW on buffer 'halves' (kernel 'transpose'), 128 times, e.g. byte 0:\n"));
  CHECK_THAT(text, Contains("RAW on shared 'tile' (kernel 'transpose'), 31 times, e.g. byte 132:\n"));
  CHECK_THAT(text, Contains("first  ") && Contains(at(tile_write) + " by invocation (33, 0, 0)\n"));
  CHECK_THAT(text, Contains("second ") && Contains(at(tile_read) + " by invocation (2, 1, 0)\n"));
  CHECK_THAT(text, Contains("      | const SourceLoc racing_write = here();    // halves[i / 2u] = i\n"));

  CHECK_THAT(text, Contains(at(bad_write) + ": write of 'out' at element 300 <beyond 256>\n"));
  CHECK_THAT(text, Contains("[out of bounds; kernel 'transpose'; first at invocation (44, 0, 0); 44 times]"));
  CHECK_THAT(text, Contains("[division by zero; kernel 'transpose'; first at invocation (0, 0, 0); 64 times]"));
  // An unreadable file: the location, no source line, and one occurrence is not counted.
  CHECK_THAT(text, Contains("warnings (1):\n  /nonexistent/sprig/kernel.cpp:12: read of shared 'tile' before any "
                            "write\n      [uninitialized shared read; kernel 'transpose'; first at invocation (5, 0, "
                            "0)]\n"));
}

TEST_CASE("the text report lists the worst sites first with their figures and says what it left out",
          "[report-formats]") {
  const std::string text = sim::to_text(hand_built_report());
  const auto accesses = text.find("memory accesses (");
  REQUIRE(accesses != std::string::npos);
  CHECK_THAT(text, Contains("memory accesses (15 sites, 12 below 100%; sectors of 64 bytes, lines of 256, 16 banks "
                            "of 8 bytes), worst first:\n"));
  const auto conflicted = text.find("// tile[lane * 32u]: a 32-way bank conflict", accesses);
  const auto strided = text.find("// out[(i * 33u) % 256u] = i;", accesses);
  const auto half = text.find("// in[i * 2u]: half of every sector wasted", accesses);
  const auto mild = text.find("// in[i + 1u]: one sector too many", accesses);
  REQUIRE(conflicted != std::string::npos);
  CHECK(conflicted < strided);
  CHECK(strided < half);
  CHECK(half < mild);
  CHECK_THAT(text, Contains("      | " + strided_text + "\n"));
  CHECK_THAT(text, Contains(at(strided_store) + "  write buffer 'out' (kernel 'transpose')\n"));
  CHECK_THAT(text, Contains("efficiency  12.5%: 16.00 sectors per request (ideal 2.00), 5.00 lines, 16 requests, "
                            "1024 bytes\n"));
  CHECK_THAT(text, Contains(at(tile_read) + "  read shared 'tile' (kernel 'transpose')\n"));
  CHECK_THAT(text, Contains("efficiency   3.1%: 32.00 wavefronts per request (ideal 1.00), 8 requests\n"));
  CHECK_THAT(text, Contains("efficiency  50.0%: 8.00 sectors per request (ideal 4.00)"));
  CHECK_THAT(text, Contains("efficiency  80.0%: 5.00 sectors per request (ideal 4.00)"));
  // Ten of the twelve sites below 100% are shown; the rest are counted, never hidden.
  CHECK(count(text, "      efficiency ") == 10);
  CHECK_THAT(text, Contains("  2 more sites below 100% not shown"));
  CHECK_THAT(text, Contains("  3 more sites are fully coalesced"));
  CHECK_THAT(text, !Contains("// in[i]: fully coalesced"));

  const auto branches = text.find("branches and loops that idle lanes, worst first:\n");
  REQUIRE(branches != std::string::npos);
  const auto loop = text.find("2000 idle lane-steps (trip-count imbalance), 0 of lanes beyond the grid; 64 "
                              "executions (640 iterations), 50.0% divergent", branches);
  const auto guard = text.find("1000 idle lane-steps (masked by this branch), 400 of lanes beyond the grid; 40 "
                               "executions, 25.0% divergent", branches);
  CHECK(loop != std::string::npos);
  CHECK(loop < guard);
  CHECK_THAT(text, Contains(at(ragged_loop) + "  loop (kernel 'transpose')\n") &&
                       Contains(at(guard_if) + "  if_ (kernel 'transpose')\n"));
  CHECK_THAT(text, !Contains("// if_(i < 32u): uniform per subgroup"));  // nothing idle: not listed

  const auto lines = text.find("lines with idle lanes, lowest SIMT efficiency first:\n");
  REQUIRE(lines != std::string::npos);
  const auto quarter = text.find("   25.0%  ", lines);
  const auto half_line = text.find("   50.0%  ", lines);
  CHECK(quarter < half_line);
  CHECK_THAT(text, Contains(at(ragged_loop) + "  (kernel 'transpose', 200 operations issued)\n") &&
                       Contains(at(strided_store) + "  (kernel 'transpose', 100 operations issued)\n"));
  CHECK(text.find(at(fine_read) + "  (kernel") == std::string::npos);  // 100%: not listed
}

TEST_CASE("the JSON report has every figure with its exact value", "[report-formats]") {
  const sim::Report r = hand_built_report();
  const json j = json::parse(sim::to_json(r));
  CHECK(j["schema"] == "sprig-simulator-report/2");
  CHECK(j["launches"] == 3);
  CHECK(j["lane_operations"] == 12640);
  CHECK(j["clean"] == false);
  CHECK(j["parameters"] ==
        json({{"sector_bytes", 64}, {"line_bytes", 256}, {"request_lanes", 16}, {"banks", 16}, {"bank_bytes", 8}}));

  REQUIRE(j["kernels"].size() == 2);
  const json& k = j["kernels"][0];
  CHECK(k["name"] == "transpose");
  CHECK(k["hash"].get<std::uint64_t>() == 0x0123456789ABCDEFull);
  CHECK(k["launches"] == 2);
  CHECK(k["invocations"] == 512);
  CHECK(k["lane_operations"] == 12000);
  CHECK(k["issued"] == 500);
  CHECK(k["subgroup_size"] == 32);
  CHECK(k["simt_efficiency"] == 0.75);
  CHECK(k["host_ms"] == 1.25);
  CHECK(k["idle_lane_steps"] == json({{"branch", 1000}, {"loop", 2000}, {"returned", 300}, {"grid_tail", 400},
                                      {"partial_subgroup", 300}, {"total", 4000}}));
  CHECK(k["branch_executions"] == 40);
  CHECK(k["divergent_branch_executions"] == 10);
  CHECK(k["divergent_share"] == 0.25);
  CHECK(j["kernels"][1]["simt_efficiency"] == 1.0);
  CHECK(j["kernels"][1]["divergent_share"] == 0.0);

  REQUIRE(j["races"].size() == 2);
  const json& race = j["races"][1];
  CHECK(race["kernel"] == "transpose");
  CHECK(race["memory"] == "tile");
  CHECK(race["space"] == "shared");
  CHECK(race["kind"] == "RAW");
  check_location(race["first"], tile_write);
  check_location(race["second"], tile_read);
  CHECK(race["first_invocation"] == json::array({33, 0, 0}));
  CHECK(race["second_invocation"] == json::array({2, 1, 0}));
  CHECK(race["byte_offset"] == 132);
  CHECK(race["count"] == 31);
  CHECK(j["races"][0]["kind"] == "WAW");
  CHECK(j["races"][0]["space"] == "buffer");

  REQUIRE(j["errors"].size() == 2);
  const json& oob = j["errors"][0];
  CHECK(oob["problem"] == "out of bounds");
  CHECK(oob["error"] == true);
  CHECK(oob["kernel"] == "transpose");
  check_location(oob["location"], bad_write);
  CHECK(oob["message"] == "write of 'out' at element 300 <beyond 256>");
  CHECK(oob["invocation"] == json::array({44, 0, 0}));
  CHECK(oob["occurrences"] == 44);
  CHECK(j["errors"][1]["problem"] == "division by zero");
  REQUIRE(j["warnings"].size() == 1);
  const json& warning = j["warnings"][0];
  CHECK(warning["problem"] == "uninitialized shared read");
  CHECK(warning["error"] == false);
  // An unreadable file: the location without "text".
  CHECK(warning["location"] == json({{"file", "/nonexistent/sprig/kernel.cpp"}, {"line", 12}, {"column", 5}}));

  REQUIRE(j["accesses"].size() == 15);  // in the report's order, not sorted
  const json& strided = j["accesses"][1];
  CHECK(strided["kernel"] == "transpose");
  CHECK(strided["memory"] == "out");
  check_location(strided["location"], strided_store);
  CHECK(strided["location"]["text"] == strided_text);
  CHECK(strided["space"] == "buffer");
  CHECK(strided["access"] == "write");
  CHECK(strided["bytes_per_lane"] == 4);
  CHECK(strided["executions"] == 8);
  CHECK(strided["requests"] == 16);
  CHECK(strided["active_lanes"] == 256);
  CHECK(strided["bytes"] == 1024);
  CHECK(strided["sectors"] == 256);
  CHECK(strided["lines"] == 80);
  CHECK(strided["ideal_sectors"] == 32);
  CHECK(strided["wavefronts"] == 0);
  CHECK(strided["ideal_wavefronts"] == 0);
  CHECK(strided["sectors_per_request"] == 16.0);
  CHECK(strided["wavefronts_per_request"] == 0.0);
  CHECK(strided["efficiency"] == 0.125);
  const json& conflicted = j["accesses"][12];
  CHECK(conflicted["space"] == "shared");
  CHECK(conflicted["wavefronts"] == 256);
  CHECK(conflicted["ideal_wavefronts"] == 8);
  CHECK(conflicted["wavefronts_per_request"] == 32.0);
  CHECK(conflicted["efficiency"] == 0.03125);
  CHECK(j["accesses"][14]["access"] == "atomic");
  CHECK(j["accesses"][14]["efficiency"] == 1.0);
  CHECK_FALSE(j["accesses"][14]["location"].contains("text"));

  REQUIRE(j["branches"].size() == 3);
  const json& guard = j["branches"][0];
  CHECK(guard["kernel"] == "transpose");
  check_location(guard["location"], guard_if);
  CHECK(guard["kind"] == "if");
  CHECK(guard["executions"] == 40);
  CHECK(guard["divergent"] == 10);
  CHECK(guard["divergent_share"] == 0.25);
  CHECK(guard["idle_lane_steps"] == 1000);
  CHECK(guard["grid_tail_lane_steps"] == 400);
  CHECK(j["branches"][2]["kind"] == "loop");
  CHECK((j["branches"][2]["divergent_share"] == 0.5 && j["branches"][2]["iterations"] == 640));

  REQUIRE(j["lines"].size() == 3);
  const json& line = j["lines"][2];
  CHECK(line["kernel"] == "transpose");
  CHECK(line["location"]["line"] == ragged_loop.line);
  CHECK(line["location"]["column"] == 0);
  CHECK(line["issued"] == 200);
  CHECK(line["lane_operations"] == 1600);
  CHECK(line["subgroup_size"] == 32);
  CHECK(line["simt_efficiency"] == 0.25);

  const json empty = json::parse(sim::to_json(sim::Report{}));
  CHECK(empty["clean"] == true);
  CHECK(empty["races"] == json::array());
  CHECK(empty["kernels"] == json::array());
}

TEST_CASE("the HTML page: escaped source coloured by coalescing and SIMT efficiency, tables, inline script",
          "[report-formats]") {
  const std::string html = sim::to_html(hand_built_report(), "hand <built> & checked");
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK_THAT(html, Contains("<title>hand &lt;built&gt; &amp; checked</title>"));
  CHECK_THAT(html, Contains("<code>const SourceLoc strided_store = here();   // out[(i * 33u) % 256u] = i; "
                            "&lt;strided &amp; &quot;uncoalesced&quot;&gt;</code>"));
  // This file is longer than 400 lines: only the lines around the report's are shown,
  // indentation kept.
  CHECK_THAT(html, Contains("<code>    R&quot;(const SourceLoc strided_store"));
  CHECK_THAT(html, !Contains("<code>  s.kernel = &quot;transpose&quot;;</code>"));
  // Red for the worst coalescing (3.1% and 12.5%), the hue growing to green at 100%.
  CHECK_THAT(html, Contains("<td class=\"coalescing\" style=\"background:hsl(3,70%,82%)\">3.1%</td>"));
  CHECK_THAT(html, Contains("<td class=\"coalescing\" style=\"background:hsl(15,70%,82%)\">12.5%</td>"));
  CHECK_THAT(html, Contains("<td class=\"coalescing\" style=\"background:hsl(120,70%,82%)\">100.0%</td>"));
  CHECK_THAT(html, Contains("<td class=\"simt\" style=\"background:hsl(30,70%,82%)\">25.0%</td>"));
  CHECK_THAT(html, Contains("<td class=\"simt\" style=\"background:hsl(90,70%,82%)\">75.0%</td>"));  // kernels
  CHECK_THAT(html, Contains("write buffer 'out' 12.5%: 16.00 sectors/request (ideal 2.00)"));
  CHECK_THAT(html, Contains("loop: 64 executions (640 iterations), 50.0% divergent, 2000 idle lane-steps"));
  CHECK_THAT(html, Contains("if_: 40 executions, 25.0% divergent, 1000 idle lane-steps, 400 beyond the grid"));

  CHECK_THAT(html, Contains("<table class=\"kernels\">") && Contains("<td>transpose</td><td>2</td><td>512</td>"));
  CHECK_THAT(html, Contains("<table class=\"races\">") && Contains("<td>WAW</td>") && Contains("<td>RAW</td>") &&
                       Contains("shared 'tile'") && Contains("(33, 0, 0) then (2, 1, 0)</td><td>31</td>"));
  CHECK_THAT(html, Contains("<table class=\"diagnostics\">") && Contains("write of 'out' at element 300 &lt;beyond "
                                                                         "256&gt;"));
  CHECK_THAT(html, Contains("<td>uninitialized shared read</td>"));
  CHECK_THAT(html, Contains("/nonexistent/sprig/kernel.cpp</h2>\n<p>(the source file cannot be read here)</p>"));

  // Self-contained and well-formed enough: nothing fetched, one inline script, every element closed.
  CHECK(count(html, "<script") == 1);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("href=\"http") == std::string::npos);
  CHECK(count(html, "<table") == count(html, "</table>"));
  CHECK(count(html, "<tr") == count(html, "</tr>"));
  CHECK(count(html, "<td") == count(html, "</td>"));
  CHECK(count(html, "<code>") == count(html, "</code>"));
  CHECK(html.find("</body></html>") != std::string::npos);
}

TEST_CASE("the HTML page shows a short file whole, a long one only around the lines the report mentions",
          "[report-formats]") {
  namespace fs = std::filesystem;
  // The reports keep the file name's pointer: these strings outlive them.
  static const std::string short_path = (fs::temp_directory_path() / "sprig_report_formats_short_kernel.cpp").string();
  static const std::string path = (fs::temp_directory_path() / "sprig_report_formats_long_kernel.cpp").string();
  {
    std::ofstream short_file(short_path);
    for (int n = 1; n <= 20; ++n) short_file << "  step " << n << ";\n";
    std::ofstream file(path);
    for (int n = 1; n <= 1000; ++n) file << "    line " << n << ";\n";
  }
  sim::Report small;
  sim::BranchSite branch;
  branch.loc.file = short_path.c_str();
  branch.loc.line = 10;
  branch.executions = 1;
  small.branches.push_back(branch);
  const std::string whole = sim::to_html(small);
  fs::remove(short_path);
  CHECK_THAT(whole, Contains("<code>  step 1;</code>") && Contains("<code>  step 20;</code>"));
  CHECK(whole.find("class=\"gap\"") == std::string::npos);

  sim::Report r;
  for (std::uint32_t n : {100u, 900u}) {
    sim::LineStats l;
    l.kernel = "long";
    l.loc.file = path.c_str();
    l.loc.line = n;
    l.issued = 4;
    l.lane_operations = 64;
    l.subgroup_size = 32;
    r.lines.push_back(l);
  }
  const std::string html = sim::to_html(r);
  fs::remove(path);
  for (const char* shown : {"line 97;", "line 100;", "line 103;", "line 897;", "line 903;"})
    CHECK_THAT(html, Contains(std::string("<code>    ") + shown + "</code>"));
  for (const char* hidden : {"line 96;", "line 104;", "line 500;", "line 896;", "line 904;"})
    CHECK_THAT(html, !Contains(std::string("<code>    ") + hidden + "</code>"));
  CHECK(count(html, "<tr class=\"gap\">") == 1);  // between the two windows
  CHECK_THAT(html, Contains("<td class=\"simt\" style=\"background:hsl(60,70%,82%)\">50.0%</td>"));
}

TEST_CASE("save_report writes the format its extension names and fails clearly", "[report-formats]") {
  namespace fs = std::filesystem;
  const sim::Report r = hand_built_report();
  const fs::path dir = fs::temp_directory_path() / "sprig_report_formats_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto read = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  sim::save_report(r, (dir / "r.json").string());
  sim::save_report(r, (dir / "r.html").string());
  sim::save_report(r, (dir / "r.htm").string());
  sim::save_report(r, (dir / "R.HTML").string());
  sim::save_report(r, (dir / "r.txt").string());
  CHECK(read(dir / "r.json") == sim::to_json(r));
  CHECK(json::parse(read(dir / "r.json"))["races"].size() == 2);
  CHECK(read(dir / "r.html") == sim::to_html(r));
  CHECK(read(dir / "r.htm") == sim::to_html(r));
  CHECK(read(dir / "R.HTML") == sim::to_html(r));
  CHECK(read(dir / "r.txt") == sim::to_text(r));

  const std::string pdf = (dir / "r.pdf").string();
  CHECK_THROWS_AS(sim::save_report(r, pdf), DeviceError);
  CHECK_THROWS_WITH(sim::save_report(r, pdf), Contains("'" + pdf + "'") && Contains("extension"));
  CHECK_THROWS_WITH(sim::save_report(r, (dir / "report").string()), Contains("extension"));
  CHECK_FALSE(fs::exists(pdf));
  CHECK_THROWS_WITH(sim::save_report(r, "/nonexistent-dir/r.json"), Contains("cannot write '/nonexistent-dir/r.json'"));
  fs::create_directories(dir / "taken.json");  // a directory where the file should go
  CHECK_THROWS_AS(sim::save_report(r, (dir / "taken.json").string()), DeviceError);
  fs::remove_all(dir);
}

TEST_CASE("require_clean fails on races, out-of-bounds accesses and barrier divergence, and only on those",
          "[report-formats]") {
  const sim::Report r = hand_built_report();
  CHECK_THROWS_AS(sim::require_clean(r), sim::AnalysisFailure);
  CHECK_THROWS_AS(sim::require_clean(r), DeviceError);  // catchable as any device error
  try {
    sim::require_clean(r);
  } catch (const sim::AnalysisFailure& failure) {
    const std::string what = failure.what();
    CHECK_THAT(what, Contains("2 race(s)") && Contains("1 out-of-bounds or barrier-divergence error(s)"));
    CHECK_THAT(what, Contains("WAW on buffer 'halves'") && Contains("RAW on shared 'tile'"));
    CHECK_THAT(what, Contains(at(bad_write) + ": write of 'out' at element 300"));
    CHECK_THAT(what, Contains("| const SourceLoc bad_write = here();"));
    // What the rule does not fail on stays out of the message.
    CHECK_THAT(what, !Contains("division by zero") && !Contains("uninitialized shared read") &&
                         !Contains("memory accesses"));
  }

  sim::Report race_only;
  race_only.races = {r.races[0]};
  CHECK_THROWS_AS(sim::require_clean(race_only), sim::AnalysisFailure);
  sim::Report out_of_bounds_only;
  out_of_bounds_only.errors = {r.errors[0]};
  CHECK_THROWS_AS(sim::require_clean(out_of_bounds_only), sim::AnalysisFailure);
  sim::Report divergent_barrier;
  divergent_barrier.errors = {diagnostic(sim::Problem::BarrierDivergence, true, guard_if, "barrier in a divergent if_",
                                         {0, 0, 0}, 32)};
  CHECK_THROWS_WITH(sim::require_clean(divergent_barrier), Contains("barrier in a divergent if_"));

  // Everything else passes: other errors, warnings, slow sites and idle lanes.
  sim::Report tolerated = r;
  tolerated.races.clear();
  tolerated.errors = {r.errors[1]};
  CHECK_NOTHROW(sim::require_clean(tolerated));
  CHECK_NOTHROW(sim::require_clean(sim::Report{}));
}
