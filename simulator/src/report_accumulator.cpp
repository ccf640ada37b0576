#include "report_accumulator.hpp"

#include <algorithm>

namespace sprig::sim {

namespace {

std::string memory_name(const ir::Kernel& k, MemorySpace space, std::uint32_t root) {
  if (space == MemorySpace::Shared) {
    const std::string& n = k.shared.at(root).name;
    return n.empty() ? "shared variable " + std::to_string(root) : n;
  }
  const std::string& n = k.params.at(root).name;
  return n.empty() ? "param" + std::to_string(root) : n;
}

MemorySpace space_of(const ir::Node& site) {
  const ir::Node* p = site.operands.at(0);
  while (p->op == ir::Op::Access) p = p->operands.at(0);
  return p->op == ir::Op::SharedRoot ? MemorySpace::Shared : MemorySpace::Buffer;
}

std::uint32_t root_of(const ir::Node& site) {
  const ir::Node* p = site.operands.at(0);
  while (p->op == ir::Op::Access) p = p->operands.at(0);
  return std::uint32_t(p->a);
}

AccessKind kind_of(const ir::Node& site) {
  switch (site.op) {
    case ir::Op::Load: return AccessKind::Read;
    case ir::Op::Store: return AccessKind::Write;
    default: return AccessKind::Atomic;
  }
}

}  // namespace

ReportAccumulator::ReportAccumulator(const AnalysisOptions& options) : options_(options) {
  report_.sector_bytes = options.sector_bytes;
  report_.line_bytes = options.line_bytes;
  report_.request_lanes = options.request_lanes;
  report_.banks = options.banks;
  report_.bank_bytes = options.bank_bytes;
}

void ReportAccumulator::add(const Program& program, const DiagnosticLog& log, const LaunchSummary& summary,
                            const analysis::LaunchFindings& findings) {
  const ir::Kernel& kernel = *program.kernel;
  ++report_.launches;
  report_.lane_operations += summary.totals.lane_operations;
  auto [it, added] = kernels_.try_emplace({kernel.name, kernel.hash}, report_.kernels.size());
  if (added) {
    KernelStats stats;
    stats.name = kernel.name;
    stats.hash = kernel.hash;
    report_.kernels.push_back(stats);
  }
  KernelStats& k = report_.kernels[it->second];
  ++k.launches;
  k.invocations += summary.invocations;
  k.lane_operations += summary.totals.lane_operations;
  k.issued += summary.totals.issued;
  k.subgroup_size = summary.subgroup_size;
  k.host_ms += summary.host_ms;
  k.idle += findings.idle;
  for (const Diagnostic& d : log.entries()) {
    std::vector<Diagnostic>& list = d.is_error ? report_.errors : report_.warnings;
    DiagnosticKey key{d.problem, d.kernel, d.loc.file, d.loc.line, d.loc.column};
    auto [at, fresh] = diagnostics_.try_emplace(key, list.size());
    if (fresh) list.push_back(d);
    else list[at->second].occurrences += d.occurrences;
  }
  add_accesses(program, findings);
  add_branches(program, findings, k);
  add_lines(program, findings);
  add_races(program, findings);
}

void ReportAccumulator::add_accesses(const Program& program, const analysis::LaunchFindings& f) {
  const ir::Kernel& kernel = *program.kernel;
  for (std::size_t pc = 0; pc < f.accesses.size(); ++pc) {
    const analysis::AccessFigures& a = f.accesses[pc];
    if (a.executions == 0) continue;
    const ir::Node& n = *program.code[pc].node;
    const MemorySpace space = space_of(n);
    const std::uint32_t root = root_of(n);
    const AccessKind kind = kind_of(n);
    SiteKey site{kernel.name, kernel.hash, n.loc.file, n.loc.line, n.loc.column, 0};
    auto [it, fresh] = accesses_.try_emplace({site, space, root, kind}, report_.accesses.size());
    if (fresh) {
      AccessSite s;
      s.kernel = kernel.name;
      s.loc = n.loc;
      s.memory = memory_name(kernel, space, root);
      s.space = space;
      s.kind = kind;
      s.bytes_per_lane = kind == AccessKind::Write ? ir::layout_of(n.operands.at(1)->type, ir::LayoutRule::Std430).size
                                                   : ir::layout_of(n.operands.at(0)->type, ir::LayoutRule::Std430).size;
      report_.accesses.push_back(s);
    }
    AccessSite& s = report_.accesses[it->second];
    s.executions += a.executions;
    s.requests += a.requests;
    s.active_lanes += a.active_lanes;
    s.bytes += a.bytes;
    s.sectors += a.sectors;
    s.lines += a.lines;
    s.ideal_sectors += a.ideal_sectors;
    s.wavefronts += a.wavefronts;
    s.ideal_wavefronts += a.ideal_wavefronts;
  }
}

void ReportAccumulator::add_branches(const Program& program, const analysis::LaunchFindings& f, KernelStats& k) {
  const ir::Kernel& kernel = *program.kernel;
  for (std::size_t pc = 0; pc < f.branches.size(); ++pc) {
    const analysis::BranchFigures& b = f.branches[pc];
    if (b.executions == 0 && b.idle_lane_steps == 0 && b.tail_lane_steps == 0) continue;
    const ir::Node& n = *program.code[pc].node;
    const auto kind = n.op == ir::Op::Loop ? BranchSite::Kind::Loop : BranchSite::Kind::If;
    SiteKey site{kernel.name, kernel.hash, n.loc.file, n.loc.line, n.loc.column, std::uint32_t(kind)};
    auto [it, fresh] = branches_.try_emplace(site, report_.branches.size());
    if (fresh) {
      BranchSite b0;
      b0.kernel = kernel.name;
      b0.loc = n.loc;
      b0.kind = kind;
      report_.branches.push_back(b0);
    }
    BranchSite& s = report_.branches[it->second];
    s.executions += b.executions;
    s.divergent += b.divergent;
    s.iterations += b.iterations;
    s.idle_lane_steps += b.idle_lane_steps;
    s.grid_tail_lane_steps += b.tail_lane_steps;
    k.branch_executions += b.executions;
    k.divergent_branch_executions += b.divergent;
  }
}

void ReportAccumulator::add_lines(const Program& program, const analysis::LaunchFindings& f) {
  const ir::Kernel& kernel = *program.kernel;
  bool added = false;
  for (std::size_t pc = 0; pc < f.pc_issued.size(); ++pc) {
    if (f.pc_issued[pc] == 0 || !program.code[pc].node) continue;
    const SourceLoc& loc = program.code[pc].node->loc;
    if (!loc.known()) continue;
    SiteKey site{kernel.name, kernel.hash, loc.file, loc.line, 0, 0};
    auto [it, fresh] = lines_.try_emplace(site, report_.lines.size());
    if (fresh) {
      LineStats s;
      s.kernel = kernel.name;
      s.loc = loc;
      s.loc.column = 0;
      report_.lines.push_back(s);
      added = true;
    }
    LineStats& s = report_.lines[it->second];
    s.issued += f.pc_issued[pc];
    s.lane_operations += f.pc_lanes[pc];
    s.subgroup_size = std::uint32_t(f.subgroup_size);
  }
  if (added) {
    // Keep the lines in (kernel, file, line) order; the map's indices follow.
    std::vector<std::size_t> order(report_.lines.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto key = [&](std::size_t i) {
      const LineStats& l = report_.lines[i];
      return std::tuple(l.kernel, std::string(l.loc.file), l.loc.line);
    };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    std::vector<LineStats> sorted;
    std::vector<std::size_t> new_index(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      new_index[order[i]] = i;
      sorted.push_back(report_.lines[order[i]]);
    }
    report_.lines = std::move(sorted);
    for (auto& [k, index] : lines_) index = new_index[index];
  }
}

void ReportAccumulator::add_races(const Program& program, const analysis::LaunchFindings& f) {
  const ir::Kernel& kernel = *program.kernel;
  for (const analysis::RaceFinding& r : f.races) {
    const SourceLoc& a = program.code[r.first_pc].node->loc;
    const SourceLoc& b = program.code[r.second_pc].node->loc;
    const std::string memory = memory_name(kernel, r.space, r.root);
    RaceKey key{kernel.name, memory, r.kind, a.file, a.line, a.column, b.file, b.line, b.column};
    auto [it, fresh] = races_.try_emplace(key, report_.races.size());
    if (fresh) {
      Race race;
      race.kernel = kernel.name;
      race.memory = memory;
      race.space = r.space;
      race.kind = r.kind;
      race.first = a;
      race.second = b;
      race.first_invocation = r.first_invocation;
      race.second_invocation = r.second_invocation;
      race.byte_offset = r.byte_offset;
      report_.races.push_back(race);
    }
    report_.races[it->second].count += r.count;
  }
}

}  // namespace sprig::sim
