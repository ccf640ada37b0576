// Named kernel parameters in the simulator's findings: races, access sites and
// out-of-bounds errors name the buffer as the kernel named it, in every report format.
#include <nlohmann/json.hpp>

#include "analysis_support.hpp"
#include "sprig/simulator/report_formats.hpp"

using namespace sprig;
using Catch::Matchers::Contains;

namespace {

// Invocations 2k and 2k + 1 both write pairs[k]: a write-after-write race on 'pairs'.
auto racing_kernel() {
  return kernel("pair_up", [](ReadBuffer<std::uint32_t> values, WriteBuffer<std::uint32_t> pairs) {
    UInt i = global_id().x();
    pairs[i / 2u] = values[i];
  }, workgroup(64).names("values", "pairs"));
}

sim::Report racing_report() {
  sim::Device dev(simtest::analysed());
  auto values = dev.upload(std::vector<std::uint32_t>(64, 1u));
  auto pairs = dev.alloc<std::uint32_t>(32);
  dev.run(racing_kernel(), grid(64), values, pairs);
  return dev.report();
}

}  // namespace

TEST_CASE("a race on a named parameter is reported under its name", "[analysis][names]") {
  const sim::Report r = racing_report();
  REQUIRE(r.races.size() == 1);
  CHECK(r.races[0].memory == "pairs");
  CHECK(r.races[0].kind == sim::RaceKind::WriteAfterWrite);
  bool read_named = false;
  for (const sim::AccessSite& s : r.accesses)
    if (s.kind == sim::AccessKind::Read) read_named = s.memory == "values";
  CHECK(read_named);
}

TEST_CASE("the text, JSON and HTML reports use the parameter names", "[analysis][names][formats]") {
  const sim::Report r = racing_report();
  CHECK_THAT(sim::to_text(r), Contains("WAW on buffer 'pairs'") && !Contains("param1"));
  const nlohmann::json j = nlohmann::json::parse(sim::to_json(r));
  REQUIRE(j["races"].size() == 1);
  CHECK(j["races"][0]["memory"] == "pairs");
  std::vector<std::string> memories;
  for (const auto& a : j["accesses"]) memories.push_back(a["memory"]);
  CHECK(memories == std::vector<std::string>{"values", "pairs"});
  // The races table (the per-line notes need the source file, which the test may not find).
  CHECK_THAT(sim::to_html(r), Contains("<td>WAW</td><td>pair_up</td><td>buffer 'pairs'</td>"));
}

TEST_CASE("an out-of-bounds access names the buffer parameter", "[analysis][names]") {
  sim::Device dev(simtest::analysed());
  auto k = kernel("overrun", [](WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i + 1u] = i;
  }, workgroup(4).names("histogram"));
  auto out = dev.alloc<std::uint32_t>(4);
  dev.run(k, grid(4), out);
  sim::Report report = dev.report();  // a copy: the diagnostic below points into it
  const sim::Diagnostic* d = report.find(sim::Problem::OutOfBounds);
  REQUIRE(d);
  CHECK_THAT(d->message, Contains("buffer 'histogram' (parameter 0, binding 0, uint elements)"));
}
