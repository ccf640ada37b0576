// The report as JSON, every figure included (schema "sprig-simulator-report/2",
// documented in docs/simulator.md), for tools and tests.
#include <nlohmann/json.hpp>

#include "source_lines.hpp"
#include "sprig/simulator/report_formats.hpp"

namespace sprig::sim {

namespace {

using nlohmann::json;

json location(const SourceLoc& loc) {
  json j{{"file", loc.file ? loc.file : ""}, {"line", loc.line}, {"column", loc.column}};
  if (auto text = source_line(loc.file, loc.line)) j["text"] = *text;
  return j;
}

json invocation(const std::array<std::uint32_t, 3>& id) { return json::array({id[0], id[1], id[2]}); }

json idle(const IdleLaneSteps& i) {
  return {{"branch", i.branch},
          {"loop", i.loop},
          {"returned", i.returned},
          {"grid_tail", i.grid_tail},
          {"partial_subgroup", i.partial_subgroup},
          {"total", i.total()}};
}

json diagnostic(const Diagnostic& d) {
  return {{"problem", problem_name(d.problem)}, {"error", d.is_error},         {"kernel", d.kernel},
          {"location", location(d.loc)},        {"message", d.message},        {"invocation", invocation(d.invocation)},
          {"occurrences", d.occurrences}};
}

json kernel(const KernelStats& k) {
  return {{"name", k.name},
          {"hash", k.hash},
          {"launches", k.launches},
          {"invocations", k.invocations},
          {"lane_operations", k.lane_operations},
          {"issued", k.issued},
          {"subgroup_size", k.subgroup_size},
          {"simt_efficiency", k.simt_efficiency()},
          {"host_ms", k.host_ms},
          {"idle_lane_steps", idle(k.idle)},
          {"branch_executions", k.branch_executions},
          {"divergent_branch_executions", k.divergent_branch_executions},
          {"divergent_share", k.divergent_share()}};
}

json access(const AccessSite& s) {
  return {{"kernel", s.kernel},
          {"location", location(s.loc)},
          {"memory", s.memory},
          {"space", space_name(s.space)},
          {"access", access_name(s.kind)},
          {"bytes_per_lane", s.bytes_per_lane},
          {"executions", s.executions},
          {"requests", s.requests},
          {"active_lanes", s.active_lanes},
          {"bytes", s.bytes},
          {"sectors", s.sectors},
          {"lines", s.lines},
          {"ideal_sectors", s.ideal_sectors},
          {"wavefronts", s.wavefronts},
          {"ideal_wavefronts", s.ideal_wavefronts},
          {"sectors_per_request", s.sectors_per_request()},
          {"wavefronts_per_request", s.wavefronts_per_request()},
          {"efficiency", s.efficiency()}};
}

json branch(const BranchSite& b) {
  return {{"kernel", b.kernel},
          {"location", location(b.loc)},
          {"kind", b.kind == BranchSite::Kind::If ? "if" : "loop"},
          {"executions", b.executions},
          {"divergent", b.divergent},
          {"divergent_share", b.divergent_share()},
          {"iterations", b.iterations},
          {"idle_lane_steps", b.idle_lane_steps},
          {"grid_tail_lane_steps", b.grid_tail_lane_steps}};
}

json line(const LineStats& l) {
  return {{"kernel", l.kernel},
          {"location", location(l.loc)},
          {"issued", l.issued},
          {"lane_operations", l.lane_operations},
          {"subgroup_size", l.subgroup_size},
          {"simt_efficiency", l.simt_efficiency()}};
}

json race(const Race& r) {
  return {{"kernel", r.kernel},
          {"memory", r.memory},
          {"space", space_name(r.space)},
          {"kind", race_name(r.kind)},
          {"first", location(r.first)},
          {"second", location(r.second)},
          {"first_invocation", invocation(r.first_invocation)},
          {"second_invocation", invocation(r.second_invocation)},
          {"byte_offset", r.byte_offset},
          {"count", r.count}};
}

template <class T, class F>
json array_of(const std::vector<T>& items, F&& convert) {
  json a = json::array();
  for (const T& item : items) a.push_back(convert(item));
  return a;
}

}  // namespace

std::string to_json(const Report& r) {
  json j{{"schema", "sprig-simulator-report/2"},
         {"launches", r.launches},
         {"lane_operations", r.lane_operations},
         {"clean", r.clean()},
         {"parameters",
          {{"sector_bytes", r.sector_bytes},
           {"line_bytes", r.line_bytes},
           {"request_lanes", r.request_lanes},
           {"banks", r.banks},
           {"bank_bytes", r.bank_bytes}}},
         {"kernels", array_of(r.kernels, kernel)},
         {"races", array_of(r.races, race)},
         {"errors", array_of(r.errors, diagnostic)},
         {"warnings", array_of(r.warnings, diagnostic)},
         {"accesses", array_of(r.accesses, access)},
         {"branches", array_of(r.branches, branch)},
         {"lines", array_of(r.lines, line)}};
  return j.dump(2);
}

}  // namespace sprig::sim
