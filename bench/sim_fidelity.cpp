// How close the simulator's memory and divergence figures come to what Nsight Compute
// measures on an H100. A suite of kernels whose behaviour is known — unit-stride and strided
// loads, a broadcast, a gather, 64- and 128-bit vector loads, transposes (naive, through a
// shared tile, through a padded tile), shared-memory bank conflicts of 1, 2, 4 and 32 ways,
// a divergent and a uniform branch, a loop with ragged trip counts and the scan tile of the
// standard library — runs here on the simulator with its default, H100-like parameters (32
// lanes, 32-byte sectors, 32 banks of 4 bytes). bench/peers/ncu_fidelity.py has the same
// kernels in CUDA, element for element, and bench/sim_fidelity_ncu.sh profiles them with ncu;
// --ncu reads what that wrote and prints both sides, figure by figure. docs/simulator.md,
// "Fidelity against Nsight Compute", says which figures should agree and why.
//
//   bench_sim_fidelity [--jsonl FILE] [--ncu OUTDIR/ncu_fidelity.txt]
//
// Both sides fill their inputs with the same words and print a checksum of each output, so
// the comparison also shows that the CUDA kernel computed what the DSL kernel computed.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/scan.hpp>

using namespace sprig;

namespace {

constexpr std::uint32_t n = 1u << 16;         // invocations of the one-dimensional kernels
constexpr std::uint32_t group = 256;          // their workgroup
constexpr std::uint32_t side = 256;           // the transposed matrix is side x side
constexpr std::uint32_t tile = 32;            // transpose tiles: tile x tile, workgroups of tile x 8
constexpr std::uint32_t shared_words = 1024;  // the bank-conflict kernels' shared array
constexpr std::uint32_t chain = 64;           // operations on each side of the branch kernels
constexpr std::uint32_t scan_n = 1u << 18;    // elements of the scan

// Input word j, the same on both sides: Knuth's multiplicative hash of j.
std::vector<std::uint32_t> input_words(std::size_t count) {
  std::vector<std::uint32_t> w(count);
  for (std::size_t j = 0; j < count; ++j) w[j] = std::uint32_t(j * 2654435761u);
  return w;
}

// Sum of word j times (2j + 1), modulo 2^64: order-sensitive, and as cheap in numpy.
std::uint64_t checksum(const std::vector<std::uint32_t>& words) {
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < words.size(); ++j) sum += std::uint64_t(words[j]) * (2 * std::uint64_t(j) + 1);
  return sum;
}

// Vector element j holds input words jN .. jN + N - 1; the output is checked word by word.
template <int N>
std::vector<vec<std::uint32_t, N>> input_vectors(std::size_t count) {
  const std::vector<std::uint32_t> w = input_words(count * N);
  std::vector<vec<std::uint32_t, N>> v(count);
  for (std::size_t j = 0; j < count; ++j) {
    const std::uint32_t* p = &w[j * N];
    if constexpr (N == 2) v[j] = {p[0], p[1]};
    else v[j] = {p[0], p[1], p[2], p[3]};
  }
  return v;
}

template <int N>
std::vector<std::uint32_t> flatten(const std::vector<vec<std::uint32_t, N>>& v) {
  std::vector<std::uint32_t> words;
  for (const auto& e : v) {
    if constexpr (N == 2) words.insert(words.end(), {e.x, e.y});
    else words.insert(words.end(), {e.x, e.y, e.z, e.w});
  }
  return words;
}

// ---- The kernels. Each one's CUDA twin in bench/peers/ncu_fidelity.py has the same name.

auto copy_kernel() {
  return kernel("fid_copy", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[i];
  }, workgroup(group).names("in", "out"));
}

// Lane l reads word l * stride: a subgroup touches min(4 * stride, 32) 32-byte sectors.
auto stride_kernel(std::uint32_t stride) {
  return kernel("fid_stride_" + std::to_string(stride), [stride](ReadBuffer<std::uint32_t> in,
                                                                 WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[i * stride];
  }, workgroup(group).names("in", "out"));
}

auto broadcast_kernel() {
  return kernel("fid_broadcast", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[0u] ^ i;
  }, workgroup(group).names("in", "out"));
}

// A pseudo-random permutation of [0, n), computed in the kernel so that the gather is the
// only load: multiplications by odd constants and xor-shifts, each invertible modulo n.
UInt permuted(const UInt& i) {
  UInt x = (i * 0x2c1b3c6du) & (n - 1);
  x = x ^ (x >> 8u);
  x = (x * 0x297a2d39u) & (n - 1);
  return x ^ (x >> 8u);
}

auto gather_kernel() {
  return kernel("fid_gather", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    out[i] = in[permuted(i)];
  }, workgroup(group).names("in", "out"));
}

template <int N>
auto vector_copy_kernel() {
  using V = vec<std::uint32_t, N>;
  return kernel("fid_vec" + std::to_string(N) + "_copy", [](ReadBuffer<V> in, WriteBuffer<V> out) {
    UInt i = global_id().x();
    out[i] = in[i];
  }, workgroup(group).names("in", "out"));
}

// out[x][y] = in[y][x], one invocation per element: reads along rows, writes down columns.
auto naive_transpose_kernel() {
  return kernel("fid_transpose_naive", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt x = global_id().x(), y = global_id().y();
    out[x * side + y] = in[y * side + x];
  }, workgroup(tile, 8).names("in", "out"));
}

// Through a tile in shared memory, each invocation moving 4 elements; `pad` = 1 shifts
// each tile row by a bank, so that a tile column falls in 32 different banks.
auto tiled_transpose_kernel(std::uint32_t pad) {
  return kernel(pad ? "fid_transpose_padded" : "fid_transpose_tiled", [pad](ReadBuffer<std::uint32_t> in,
                                                                           WriteBuffer<std::uint32_t> out) {
    auto block = shared_array<std::uint32_t>(tile * (tile + pad), "block");
    UInt tx = local_id().x(), ty = local_id().y();
    UInt bx = workgroup_id().x() * tile, by = workgroup_id().y() * tile;
    for (std::uint32_t row = 0; row < tile; row += 8)
      block[(ty + row) * (tile + pad) + tx] = in[(by + ty + row) * side + bx + tx];
    barrier();
    for (std::uint32_t row = 0; row < tile; row += 8)
      out[(bx + ty + row) * side + by + tx] = block[tx * (tile + pad) + ty + row];
  }, workgroup(tile, 8).names("in", "out"));
}

// Fills a shared array with conflict-free stores, then each lane reads word
// (local index * stride) mod 1024: 32 lanes hit gcd(stride, 32) words per bank, all
// distinct, so strides 1, 2, 4 and 32 need 1, 2, 4 and 32 wavefronts.
auto shared_stride_kernel(std::uint32_t stride) {
  return kernel("fid_shared_stride_" + std::to_string(stride), [stride](ReadBuffer<std::uint32_t> in,
                                                                        WriteBuffer<std::uint32_t> out) {
    auto words = shared_array<std::uint32_t>(shared_words, "words");
    UInt i = global_id().x(), l = local_index();
    UInt v = in[i];
    for (std::uint32_t k = 0; k < shared_words / group; ++k) words[l + group * k] = v ^ k;
    barrier();
    out[i] = words[(l * stride) & (shared_words - 1)];
  }, workgroup(group).names("in", "out"));
}

// Two chains of different operations, so that no compiler can merge the two sides of a
// branch into one (the CUDA twin keeps a real branch).
UInt chain_a(UInt x) {
  for (std::uint32_t k = 0; k < chain; ++k) x = (x ^ (x >> 15u)) * 0x2c1b3c6du;
  return x;
}
UInt chain_b(UInt x) {
  for (std::uint32_t k = 0; k < chain; ++k) x = rotate_left(x, 7u) + 0x9e3779b9u;
  return x;
}

// Odd and even lanes take different sides (divergent); or whole subgroups do (uniform).
auto branch_kernel(bool divergent) {
  const char* name = divergent ? "fid_branch_divergent" : "fid_branch_uniform";
  return kernel(name, [divergent](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<std::uint32_t> x = UInt(in[i]);
    Bool odd = divergent ? (i & 1u) == 1u : ((i >> 5u) & 1u) == 1u;
    if_(odd, [&] { x = chain_a(x.load()); }).else_([&] { x = chain_b(x.load()); });
    out[i] = x;
  }, workgroup(group).names("in", "out"));
}

// Lane l of each subgroup iterates l times: 31 iterations per subgroup, 16 lanes active on
// average in them. Four mixing steps per iteration make the body, not the loop's own
// bookkeeping or what runs before and after it, most of what is issued (on both sides).
auto ragged_loop_kernel() {
  return kernel("fid_loop_imbalance", [](ReadBuffer<std::uint32_t> in, WriteBuffer<std::uint32_t> out) {
    UInt i = global_id().x();
    Var<std::uint32_t> x = UInt(in[i]);
    for_(0u, i & 31u, [&](UInt k) {
      UInt y = x;
      for (int step = 0; step < 4; ++step) y = (y ^ (y >> 15u)) * 0x2c1b3c6du;
      x = y + k;
    });
    out[i] = x;
  }, workgroup(group).names("in", "out"));
}

// ---- One case: a kernel, launched once on a fresh device.

struct Case {
  std::string name;     // the kernel's name on both sides
  std::string pattern;  // what it does
  // Launches the kernel once and returns the checksum of its output.
  std::function<std::uint64_t(sim::Device&)> run;
};

template <class K>
std::uint64_t run_words(sim::Device& dev, const K& k, Grid g, std::size_t in_words, std::size_t out_words) {
  auto in = dev.upload(input_words(in_words));
  auto out = dev.alloc<std::uint32_t>(out_words);
  dev.run(k, g, in, out);
  return checksum(dev.download(out));
}

template <int N>
std::uint64_t run_vectors(sim::Device& dev) {
  auto in = dev.upload(input_vectors<N>(n));
  auto out = dev.alloc<vec<std::uint32_t, N>>(n);
  dev.run(vector_copy_kernel<N>(), grid(n), in, out);
  return checksum(flatten<N>(dev.download(out)));
}

// The standard library's scan tile on its own: the prefixed pass of a reduce-then-scan
// (256 invocations x 16 items), every tile's prefix 0.
std::uint64_t run_scan_tile(sim::Device& dev) {
  const detail::TileShape shape{256, 16};
  const std::size_t tiles = shape.tiles_for(scan_n);
  auto k = detail::prefixed_scan_kernel<std::uint32_t>(plus<std::uint32_t>(), detail::ScanKind::Inclusive,
                                                         detail::subgroup_scan_form(dev.info()), shape);
  auto in = dev.upload(input_words(scan_n));
  auto out = dev.alloc<std::uint32_t>(scan_n);
  auto prefixes = dev.upload(std::vector<std::uint32_t>(tiles, 0u));
  dev.run(k, detail::tile_grid(tiles, shape), in, out, prefixes, scan_n);
  return checksum(dev.download(out));
}

std::vector<Case> suite() {
  std::vector<Case> cases;
  auto add_words = [&](std::string pattern, auto make, Grid g, std::size_t in_words, std::size_t out_words) {
    auto k = make();
    std::string name = k.ir()->name;
    cases.push_back({name, std::move(pattern), [k, g, in_words, out_words](sim::Device& dev) {
                       return run_words(dev, k, g, in_words, out_words);
                     }});
  };
  add_words("out[i] = in[i]", copy_kernel, grid(n), n, n);
  for (std::uint32_t s : {2u, 4u, 32u, 33u})
    add_words("out[i] = in[i * " + std::to_string(s) + "]", [s] { return stride_kernel(s); }, grid(n),
              std::size_t(n) * s, n);
  add_words("out[i] = in[0] ^ i", broadcast_kernel, grid(n), n, n);
  add_words("out[i] = in[perm(i)]", gather_kernel, grid(n), n, n);
  cases.push_back({"fid_vec2_copy", "uvec2 out[i] = in[i]", run_vectors<2>});
  cases.push_back({"fid_vec4_copy", "uvec4 out[i] = in[i]", run_vectors<4>});
  add_words("out[x][y] = in[y][x]", naive_transpose_kernel, grid(side, side), side * side, side * side);
  add_words("transpose via 32x32 tile", [] { return tiled_transpose_kernel(0); }, grid(side, side / 4), side * side,
            side * side);
  add_words("transpose via 32x33 tile", [] { return tiled_transpose_kernel(1); }, grid(side, side / 4), side * side,
            side * side);
  for (std::uint32_t s : {1u, 2u, 4u, 32u})
    add_words("shared[(l * " + std::to_string(s) + ") % 1024]", [s] { return shared_stride_kernel(s); }, grid(n), n, n);
  add_words("odd/even lanes: different chains", [] { return branch_kernel(true); }, grid(n), n, n);
  add_words("odd/even subgroups: different chains", [] { return branch_kernel(false); }, grid(n), n, n);
  add_words("for k < lane: x = f(x) + k", ragged_loop_kernel, grid(n), n, n);
  cases.push_back({"fid_scan_tile", "stdlib scan tile 256x16", run_scan_tile});
  return cases;
}

// ---- Figures: derived the same way from either side's totals.

// Totals of one kernel, from the simulator's report or from ncu's metrics.
struct Totals {
  double gld_sectors = 0, gld_requests = 0, gst_sectors = 0, gst_requests = 0;
  double sld_wavefronts = 0, sld_requests = 0, sst_wavefronts = 0, sst_requests = 0;
  std::optional<double> threads_per_instruction;
  std::optional<double> branch_uniform_pct;  // absent when nothing branched
  std::optional<double> divergent_branches;
  // ncu's own bank-conflict counters (the simulator's are wavefronts - requests).
  std::optional<double> sld_conflict_counter, sst_conflict_counter;
};

// Exact: the hardware should give the same number. Approximate: the simulator counts IR
// operations, the GPU SASS instructions, so only the share of idle lanes carries over.
// Info: defined differently on the two sides (see docs/simulator.md); shown, not judged.
enum class Match { Exact, Approximate, Info };

struct FigureDef {
  const char* key;
  const char* label;
  Match match;
};

constexpr std::array<FigureDef, 15> figure_defs{{
    {"gld_requests", "global load requests", Match::Exact},
    {"gld_sectors_per_request", "global load sectors/request", Match::Exact},
    {"gst_requests", "global store requests", Match::Exact},
    {"gst_sectors_per_request", "global store sectors/request", Match::Exact},
    {"sld_requests", "shared load requests", Match::Exact},
    {"sld_wavefronts_per_request", "shared load wavefronts/request", Match::Exact},
    {"sld_conflicts", "shared load conflicts (wavefronts - requests)", Match::Exact},
    {"sst_requests", "shared store requests", Match::Exact},
    {"sst_wavefronts_per_request", "shared store wavefronts/request", Match::Exact},
    {"sst_conflicts", "shared store conflicts (wavefronts - requests)", Match::Exact},
    {"threads_per_instruction", "active threads per instruction", Match::Approximate},
    {"branch_uniform_pct", "uniform branch executions, %", Match::Info},
    {"divergent_branches", "divergent branch executions", Match::Info},
    {"sld_conflict_counter", "shared load conflicts, ncu's counter", Match::Info},
    {"sst_conflict_counter", "shared store conflicts, ncu's counter", Match::Info},
}};

using Figures = std::map<std::string, double>;  // a figure that does not apply is absent

Figures derive(const Totals& t) {
  Figures f;
  auto memory = [&](const char* prefix, double requests, double units, const char* per_request) {
    if (requests <= 0) return;
    f[std::string(prefix) + "_requests"] = requests;
    f[per_request] = units / requests;
  };
  memory("gld", t.gld_requests, t.gld_sectors, "gld_sectors_per_request");
  memory("gst", t.gst_requests, t.gst_sectors, "gst_sectors_per_request");
  memory("sld", t.sld_requests, t.sld_wavefronts, "sld_wavefronts_per_request");
  memory("sst", t.sst_requests, t.sst_wavefronts, "sst_wavefronts_per_request");
  if (t.sld_requests > 0) f["sld_conflicts"] = t.sld_wavefronts - t.sld_requests;
  if (t.sst_requests > 0) f["sst_conflicts"] = t.sst_wavefronts - t.sst_requests;
  if (t.threads_per_instruction) f["threads_per_instruction"] = *t.threads_per_instruction;
  if (t.branch_uniform_pct) f["branch_uniform_pct"] = *t.branch_uniform_pct;
  if (t.divergent_branches) f["divergent_branches"] = *t.divergent_branches;
  // The simulator has no separate counter: its conflicts stand in, so the row shows how
  // far ncu's counter is from wavefronts - requests.
  if (t.sld_requests > 0) f["sld_conflict_counter"] = t.sld_conflict_counter.value_or(f["sld_conflicts"]);
  if (t.sst_requests > 0) f["sst_conflict_counter"] = t.sst_conflict_counter.value_or(f["sst_conflicts"]);
  return f;
}

Totals simulator_totals(const sim::Report& r) {
  Totals t;
  for (const sim::AccessSite& s : r.accesses) {
    // The suite has no atomics; a load or store is what both sides count.
    if (s.kind == sim::AccessKind::Atomic) continue;
    const bool load = s.kind == sim::AccessKind::Read;
    if (s.space == sim::MemorySpace::Buffer) {
      (load ? t.gld_sectors : t.gst_sectors) += double(s.sectors);
      (load ? t.gld_requests : t.gst_requests) += double(s.requests);
    } else {
      (load ? t.sld_wavefronts : t.sst_wavefronts) += double(s.wavefronts);
      (load ? t.sld_requests : t.sst_requests) += double(s.requests);
    }
  }
  std::uint64_t lanes = 0, issued = 0, branches = 0, divergent = 0;
  for (const sim::KernelStats& k : r.kernels) {
    lanes += k.lane_operations;
    issued += k.issued;
    branches += k.branch_executions;
    divergent += k.divergent_branch_executions;
  }
  if (issued) t.threads_per_instruction = double(lanes) / double(issued);
  if (branches) t.branch_uniform_pct = 100.0 * double(branches - divergent) / double(branches);
  t.divergent_branches = double(divergent);
  return t;
}

// ncu's metrics of one kernel (names as bench/sim_fidelity_ncu.sh collects them).
Totals ncu_totals(const std::map<std::string, double>& m) {
  auto get = [&](const std::string& name) -> std::optional<double> {
    auto it = m.find(name);
    return it == m.end() ? std::nullopt : std::optional<double>(it->second);
  };
  Totals t;
  t.gld_sectors = get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum").value_or(0);
  t.gld_requests = get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").value_or(0);
  t.gst_sectors = get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum").value_or(0);
  t.gst_requests = get("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum").value_or(0);
  t.sld_wavefronts = get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum").value_or(0);
  t.sst_wavefronts = get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum").value_or(0);
  // Shared requests: L1's own count where ncu has it, else the warp-level shared-memory
  // instructions (one request each; docs/simulator.md says where the two may differ).
  auto shared_requests = [&](const char* op, double wavefronts) {
    std::optional<double> l1 = get(std::string("l1tex__t_requests_pipe_lsu_mem_shared_op_") + op + ".sum");
    if (l1 && (*l1 > 0 || wavefronts == 0)) return *l1;
    return get(std::string("smsp__inst_executed_op_shared_") + op + ".sum").value_or(0);
  };
  t.sld_requests = shared_requests("ld", t.sld_wavefronts);
  t.sst_requests = shared_requests("st", t.sst_wavefronts);
  t.threads_per_instruction = get("smsp__thread_inst_executed_per_inst_executed.ratio");
  t.branch_uniform_pct = get("smsp__sass_average_branch_targets_threads_uniform.pct");
  t.divergent_branches = get("smsp__sass_branch_targets_threads_divergent.sum");
  t.sld_conflict_counter = get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  t.sst_conflict_counter = get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
  return t;
}

struct Result {
  const Case* c;
  Figures figures;
  std::uint64_t checksum;
  // ncu's side, with --ncu: its figures (absent when ncu did not measure the kernel) and
  // the CUDA output's checksum.
  std::optional<Figures> ncu;
  std::string ncu_checksum;
};

std::string hex(std::uint64_t v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(v));
  return buffer;
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

void write_figures(const Figures& figures, std::ostream& out) {
  out << "{";
  bool first = true;
  for (const FigureDef& d : figure_defs) {
    auto it = figures.find(d.key);
    if (it == figures.end()) continue;
    char value[64];
    std::snprintf(value, sizeof value, "%.17g", it->second);
    out << (first ? "" : ",") << "\"" << d.key << "\":" << value;
    first = false;
  }
  out << "}";
}

// One line per kernel: {"kernel", "pattern", "checksum", "figures": {...}} and, with
// --ncu, "ncu_checksum" and "ncu": {...} (the same figures from ncu's metrics).
void write_jsonl(const std::vector<Result>& results, std::ostream& out) {
  for (const Result& r : results) {
    out << "{\"kernel\":\"" << r.c->name << "\",\"pattern\":\"" << json_escape(r.c->pattern) << "\",\"checksum\":\""
        << hex(r.checksum) << "\",\"figures\":";
    write_figures(r.figures, out);
    if (r.ncu) {
      out << ",\"ncu_checksum\":\"" << json_escape(r.ncu_checksum) << "\",\"ncu\":";
      write_figures(*r.ncu, out);
    }
    out << "}\n";
  }
}

std::string cell(const Figures& f, const char* key, const char* format) {
  auto it = f.find(key);
  if (it == f.end()) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, it->second);
  return buffer;
}

// Counts as integers, ratios with three decimals.
std::string number_cell(const Figures& f, const char* key) {
  auto it = f.find(key);
  if (it == f.end()) return "-";
  const bool integral = it->second == std::floor(it->second) && std::fabs(it->second) < 1e15;
  return cell(f, key, integral ? "%.0f" : "%.3f");
}

void print_simulator_table(const std::vector<Result>& results) {
  std::printf("simulator: subgroup 32, 32-byte sectors, 32 banks x 4 bytes; one request per subgroup execution\n\n");
  std::printf("%-22s %7s %7s %7s %7s | %6s %6s %6s %6s %6s %6s | %7s %6s | %s\n", "kernel", "gld req", "sec/req",
              "gst req", "sec/req", "sld rq", "wf/req", "confl", "sst rq", "wf/req", "confl", "thr/ins", "unif%",
              "pattern");
  for (const Result& r : results) {
    const Figures& f = r.figures;
    std::printf("%-22s %7s %7s %7s %7s | %6s %6s %6s %6s %6s %6s | %7s %6s | %s\n", r.c->name.c_str(),
                cell(f, "gld_requests", "%.0f").c_str(), cell(f, "gld_sectors_per_request", "%.3f").c_str(),
                cell(f, "gst_requests", "%.0f").c_str(), cell(f, "gst_sectors_per_request", "%.3f").c_str(),
                cell(f, "sld_requests", "%.0f").c_str(), cell(f, "sld_wavefronts_per_request", "%.3f").c_str(),
                cell(f, "sld_conflicts", "%.0f").c_str(), cell(f, "sst_requests", "%.0f").c_str(),
                cell(f, "sst_wavefronts_per_request", "%.3f").c_str(), cell(f, "sst_conflicts", "%.0f").c_str(),
                cell(f, "threads_per_instruction", "%.3f").c_str(), cell(f, "branch_uniform_pct", "%.1f").c_str(),
                r.c->pattern.c_str());
  }
}

// What bench/peers/ncu_fidelity.py convert wrote: "kernel<TAB>metric<TAB>value" lines, the
// metric "checksum" being the CUDA output's checksum in hex.
struct NcuKernel {
  std::map<std::string, double> metrics;
  std::string checksum;
};

std::map<std::string, NcuKernel> read_ncu(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::map<std::string, NcuKernel> kernels;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kernel, metric, value;
    if (!std::getline(fields, kernel, '\t') || !std::getline(fields, metric, '\t') || !std::getline(fields, value))
      throw std::runtime_error(path + ":" + std::to_string(number) + ": expected kernel<TAB>metric<TAB>value");
    if (metric == "checksum") {
      kernels[kernel].checksum = value;
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || *end != '\0')
      throw std::runtime_error(path + ":" + std::to_string(number) + ": not a number: " + value);
    kernels[kernel].metrics[metric] = v;
  }
  return kernels;
}

const char* match_name(Match m) {
  return m == Match::Exact ? "exact" : m == Match::Approximate ? "approx" : "info";
}

// Side by side; returns false when a kernel is missing on the ncu side or the two sides'
// outputs differ (then the kernels are not the same and their figures prove nothing).
bool print_comparison(const std::vector<Result>& results) {
  std::printf("\nsimulator against Nsight Compute (rel. diff = (sim - ncu) / ncu; judged within 5%%)\n\n");
  std::printf("%-22s %-46s %-6s %12s %12s %9s  %s\n", "kernel", "figure", "match", "sim", "ncu", "rel.diff", "");
  int judged = 0, within = 0;
  bool sound = true;
  for (const Result& r : results) {
    if (!r.ncu) {
      std::printf("%-22s missing from the ncu results\n\n", r.c->name.c_str());
      sound = false;
      continue;
    }
    const bool same_output = r.ncu_checksum == hex(r.checksum);
    if (!same_output) sound = false;
    const Figures& theirs = *r.ncu;
    for (const FigureDef& d : figure_defs) {
      auto a = r.figures.find(d.key), b = theirs.find(d.key);
      if (a == r.figures.end() && b == theirs.end()) continue;
      const std::string sim_value = number_cell(r.figures, d.key), ncu_value = number_cell(theirs, d.key);
      std::string diff = "-", verdict;
      bool ok = false;
      if (a != r.figures.end() && b != theirs.end()) {
        const double x = a->second, y = b->second;
        const double rel = x == y ? 0.0 : y == 0 ? INFINITY : (x - y) / std::fabs(y);
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, std::isinf(rel) ? "inf" : "%+.1f%%", 100 * rel);
        diff = buffer;
        ok = std::fabs(rel) <= 0.05;
      }
      if (d.match == Match::Info) {
        verdict = "(not judged)";
      } else {
        ++judged;
        within += ok;
        verdict = ok ? "yes" : "NO";
      }
      std::printf("%-22s %-46s %-6s %12s %12s %9s  %s\n", r.c->name.c_str(), d.label, match_name(d.match),
                  sim_value.c_str(), ncu_value.c_str(), diff.c_str(), verdict.c_str());
    }
    if (same_output)
      std::printf("%-22s output checksum %s on both sides\n", r.c->name.c_str(), hex(r.checksum).c_str());
    else
      std::printf("%-22s OUTPUTS DIFFER (simulator %s, CUDA %s): not the same kernel, its figures prove nothing\n",
                  r.c->name.c_str(), hex(r.checksum).c_str(), r.ncu_checksum.empty() ? "none" : r.ncu_checksum.c_str());
    std::printf("\n");
  }
  std::printf("%d of %d judged figures within 5%%\n", within, judged);
  return sound;
}

}  // namespace

int main(int argc, char** argv) {
  std::string jsonl_path, ncu_path;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--jsonl") && has_value) jsonl_path = argv[++i];
    else if (!std::strcmp(argv[i], "--ncu") && has_value) ncu_path = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--jsonl FILE] [--ncu OUTDIR/ncu_fidelity.txt]\n", argv[0]);
      return 2;
    }
  }
  std::map<std::string, NcuKernel> ncu;
  try {
    if (!ncu_path.empty()) ncu = read_ncu(ncu_path);  // before the simulation: a bad file fails at once
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }

  sim::Options options;
  options.strict = false;
  options.analyses.races = false;  // not measured here; its shadow memory would only cost time
  const std::vector<Case> cases = suite();
  std::vector<Result> results;
  for (const Case& c : cases) {
    sim::Device dev(options);
    const std::uint64_t sum = c.run(dev);
    const sim::Report report = dev.report();
    if (!report.errors.empty()) {
      std::fprintf(stderr, "%s: the simulator reported errors:\n", c.name.c_str());
      std::cerr << report;
      return 1;
    }
    Result result{&c, derive(simulator_totals(report)), sum, std::nullopt, ""};
    if (auto it = ncu.find(c.name); it != ncu.end()) {
      result.ncu = derive(ncu_totals(it->second.metrics));
      result.ncu_checksum = it->second.checksum;
    }
    results.push_back(std::move(result));
  }
  print_simulator_table(results);
  if (!jsonl_path.empty()) {
    std::ofstream out(jsonl_path);
    write_jsonl(results, out);
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", jsonl_path.c_str());
      return 1;
    }
  }
  if (!ncu_path.empty() && !print_comparison(results)) return 1;
  return 0;
}
