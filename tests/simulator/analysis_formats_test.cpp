// The same figures in the three report formats — text, JSON and HTML — for a report
// with an uncoalesced access, a race, a divergent branch and an error; saving to files;
// and the test mode's require_clean.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "analysis_support.hpp"
#include "sprig/simulator/report_formats.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

const std::uint32_t strided_line = __LINE__ + 6;
const std::uint32_t race_line = __LINE__ + 6;
auto problem_kernel() {
  return kernel("problems", [](WriteBuffer<std::uint32_t> out, WriteBuffer<std::uint32_t> halves,
                               WriteBuffer<std::uint32_t> quotients) {
    UInt i = global_id().x();
    out[(i * 33u) % 256u] = i;
    halves[i / 2u] = i;
    if_(i % 2u == 0u, [&] { quotients[i] = 100u / (i % 4u); });
  }, workgroup(256));
}

sim::Report problem_report() {
  sim::Device dev(simtest::analysed());
  auto out = dev.alloc<std::uint32_t>(256);
  auto halves = dev.alloc<std::uint32_t>(128);
  auto quotients = dev.alloc<std::uint32_t>(256);
  dev.run(problem_kernel(), grid(256), out, halves, quotients);
  return dev.report();
}

}  // namespace

TEST_CASE("the text report shows the worst sites with their source text and figures", "[analysis][formats]") {
  const std::string text = sim::to_text(problem_report());
  CHECK_THAT(text, Contains("1 race") && Contains("WAW on buffer 'param1'") && Contains("128 times"));
  CHECK_THAT(text, Contains("out[(i * 33u) % 256u] = i;") && Contains("efficiency  12.5%") &&
                       Contains("32.00 sectors per request (ideal 4.00)"));
  CHECK_THAT(text, Contains("analysis_formats_test.cpp:" + std::to_string(strided_line)));
  CHECK_THAT(text, Contains("division by zero") && Contains("masked by this branch"));
  // Worst first: the 12.5% site comes before the coalesced ones are summarised.
  CHECK(text.find("efficiency  12.5%") < text.find("fully coalesced"));
}

TEST_CASE("the JSON report has every figure", "[analysis][formats]") {
  const sim::Report r = problem_report();
  const nlohmann::json j = nlohmann::json::parse(sim::to_json(r));
  CHECK(j["schema"] == "sprig-simulator-report/2");
  CHECK(j["clean"] == false);
  CHECK(j["parameters"]["sector_bytes"] == 32);
  const nlohmann::json* strided = nullptr;
  for (const auto& a : j["accesses"])
    if (a["location"]["line"] == strided_line) strided = &a;
  REQUIRE(strided);
  CHECK((*strided)["sectors"] == 256);
  CHECK((*strided)["ideal_sectors"] == 32);
  CHECK((*strided)["lines"] == 64);
  CHECK((*strided)["requests"] == 8);
  CHECK((*strided)["efficiency"] == 0.125);
  CHECK((*strided)["memory"] == "param0");
  CHECK((*strided)["location"]["text"] == "out[(i * 33u) % 256u] = i;");
  REQUIRE(j["races"].size() == 1);
  CHECK(j["races"][0]["kind"] == "WAW");
  CHECK(j["races"][0]["count"] == 128);
  CHECK(j["races"][0]["first"]["line"] == race_line);
  CHECK(j["races"][0]["second_invocation"] == nlohmann::json::array({1, 0, 0}));
  CHECK(j["errors"].empty());
  REQUIRE(j["warnings"].size() == 1);
  CHECK(j["warnings"][0]["problem"] == "division by zero");
  CHECK(j["warnings"][0]["occurrences"] == 64);
  CHECK(j["kernels"][0]["name"] == "problems");
  CHECK(j["kernels"][0]["idle_lane_steps"]["branch"] == r.kernels[0].idle.branch);
  CHECK(j["kernels"][0]["divergent_share"] == 1.0);
  CHECK(j["branches"][0]["kind"] == "if");
  CHECK(j["lines"].size() == r.lines.size());
}

TEST_CASE("the HTML page colours the source and lists races and errors", "[analysis][formats]") {
  const std::string html = sim::to_html(problem_report(), "problems <report>");
  CHECK_THAT(html, Contains("<!DOCTYPE html>") && Contains("problems &lt;report&gt;"));
  CHECK_THAT(html, Contains("out[(i * 33u) % 256u] = i;"));
  CHECK_THAT(html, Contains("class=\"coalescing\" style=\"background:hsl(15,70%,82%)\">12.5%"));
  CHECK_THAT(html, Contains("class=\"simt\"") && Contains("class=\"races\"") && Contains("WAW"));
  CHECK_THAT(html, Contains("division by zero"));
  CHECK(html.find("<script src") == std::string::npos);
}

TEST_CASE("reports are saved by extension, and bad paths are clear errors", "[analysis][formats]") {
  const sim::Report r = problem_report();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "sprig_report_test";
  fs::create_directories(dir);
  for (const char* name : {"r.json", "r.html", "r.txt"}) {
    sim::save_report(r, (dir / name).string());
    CHECK(fs::file_size(dir / name) > 100);
  }
  CHECK_THROWS_WITH(sim::save_report(r, (dir / "r.pdf").string()), Contains("r.pdf") && Contains("extension"));
  CHECK_THROWS_WITH(sim::save_report(r, "/nonexistent-dir/r.json"), Contains("cannot write '/nonexistent-dir/r.json'"));
  fs::remove_all(dir);
}

TEST_CASE("require_clean fails on races and out-of-bounds accesses, passes a clean report", "[analysis][strict]") {
  CHECK_THROWS_AS(sim::require_clean(problem_report()), sim::AnalysisFailure);
  CHECK_THROWS_WITH(sim::require_clean(problem_report()), Contains("1 race") && Contains("WAW"));
  sim::Device dev(simtest::analysed());
  auto k = kernel("fine", [](WriteBuffer<std::uint32_t> out) { out[global_id().x()] = 1u; }, workgroup(64));
  auto out = dev.alloc<std::uint32_t>(64);
  dev.run(k, grid(64), out);
  CHECK_NOTHROW(sim::require_clean(dev.report()));
}
