// sprig-plot: proof-of-space plotting from the command line (Abundance's or Subspace's
// rules, docs/pos.md).
//
//   sprig-plot plot --seed HEX64 --k 20 [--mode subspace] --output record.plot
//   sprig-plot plot --sector-id HEX64 --piece-offset 0 --records 16 --output sector.plot
//   sprig-plot verify --input sector.plot
//   sprig-plot bench --k 20 --records 20
//
// The file format (all integers little-endian) is documented in docs/pos.md ("The plot
// file"): a 32-byte header (magic "SPRIGPOS", version, K, record count, mode), then per record its
// seed, proof count, found-proofs bitmap, s-buckets and proofs (sprig/stdlib/pos/plot_file.hpp).
// A plot is written to a temporary file beside FILE, fsynced and renamed (atomic_file.hpp),
// so a failed or killed run never leaves a half-written FILE.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <sprig/sprig.hpp>
#include <sprig/stdlib/hash/blake3_fixed.hpp>
#include <sprig/stdlib/pos/plot_file.hpp>
#include <sprig/stdlib/pos/pos.hpp>
#include <sprig/stdlib/pos/verify.hpp>

#include "atomic_file.hpp"

using namespace sprig;

namespace {

// A user error: printed as "sprig-plot: error: ..." with exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

pos::Seed parse_hex32(const std::string& text, const std::string& what) {
  if (text.size() != 64)
    throw UsageError(what + " must be 64 hex digits (32 bytes); got " + std::to_string(text.size()) + " characters");
  pos::Seed out{};
  for (std::size_t i = 0; i < 64; ++i) {
    const char c = text[i];
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0) throw UsageError(what + " must be 64 hex digits; '" + std::string(1, c) + "' at position " + std::to_string(i) + " is not one");
    out[i / 2] = std::uint8_t(out[i / 2] | (v << (i % 2 == 0 ? 4 : 0)));
  }
  return out;
}

std::string hex(const pos::Seed& seed) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (auto b : seed) s += digits[b >> 4], s += digits[b & 15];
  return s;
}

void check_k_argument(int k) {
  try {
    pos::check_k(k);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

std::unique_ptr<Device> open_device(const std::string& kind) {
  if (kind == "sim") {
    sim::Options options;
    options.analyses = sim::AnalysisOptions::none();  // plotting, not profiling
    return std::make_unique<sim::Device>(options);
  }
  return std::make_unique<vk::Device>(vk::Device::best());
}

pos::Mode parse_mode(const std::string& text) {
  return text == "subspace" ? pos::Mode::Subspace : pos::Mode::Abundance;  // CLI11 checked the spelling
}

// The plotter says when the device's per-buffer limit is too small for K; a failed
// allocation later is reported the same way.
std::unique_ptr<pos::Plotter> make_plotter(Device& device, int k, pos::Mode mode) {
  try {
    return std::make_unique<pos::Plotter>(device, k, mode);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  } catch (const std::bad_alloc&) {
    throw UsageError("device too small: the plotter's buffers for K = " + std::to_string(k) + " do not fit in " +
                     device.info().name + "'s memory");
  }
}

// The seeds of records at piece offsets first .. first + count - 1 of a sector (pos-spec §1.6):
// BLAKE3(sector_id ‖ piece_offset as u16 LE), one 34-byte message per record on the device.
std::vector<pos::Seed> sector_seeds(Device& device, const pos::Seed& sector_id, std::uint32_t first, std::uint32_t count) {
  std::vector<std::uint8_t> messages;
  for (std::uint32_t r = 0; r < count; ++r) {
    messages.insert(messages.end(), sector_id.begin(), sector_id.end());
    messages.push_back(std::uint8_t((first + r) & 0xff));
    messages.push_back(std::uint8_t((first + r) >> 8));
  }
  auto data = device.upload(hash::pack_bytes(messages));
  auto out = device.alloc<std::uint32_t>(std::size_t(count) * 8);
  hash::blake3_fixed(device, data, 34, count, out, 32);
  std::vector<std::uint8_t> bytes = hash::unpack_bytes(device.download(out), std::size_t(count) * 32);
  std::vector<pos::Seed> seeds(count);
  for (std::uint32_t r = 0; r < count; ++r) std::copy_n(bytes.begin() + std::ptrdiff_t(r) * 32, 32, seeds[r].begin());
  return seeds;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct PlotArgs {
  std::string seed, sector_id, output, device = "vulkan", mode = "abundance";
  std::uint32_t piece_offset = 0, records = 1;
  int k = 20;
};

int run_plot(const PlotArgs& a) {
  check_k_argument(a.k);
  if (a.records == 0) throw UsageError("--records must be at least 1");
  std::optional<pos::Seed> seed, sector;
  if (!a.seed.empty()) {
    seed = parse_hex32(a.seed, "--seed");
    if (a.records != 1) throw UsageError("--seed plots one record; use --sector-id for several");
  } else {
    sector = parse_hex32(a.sector_id, "--sector-id");
    if (std::uint64_t(a.piece_offset) + a.records > 65536)
      throw UsageError("--piece-offset + --records must not exceed 65536 (piece offsets are u16)");
  }
  AtomicFile file(a.output);
  std::ostream& out = file.stream();
  std::unique_ptr<Device> device = open_device(a.device);
  // Two plotters take turns: the device plots record r + 1 while the host downloads and
  // writes record r.
  std::array<std::unique_ptr<pos::Plotter>, 2> plotters{make_plotter(*device, a.k, parse_mode(a.mode)),
                                                       make_plotter(*device, a.k, parse_mode(a.mode))};
  std::vector<pos::Seed> seeds =
      seed ? std::vector<pos::Seed>{*seed} : sector_seeds(*device, *sector, a.piece_offset, a.records);

  pos::write_plot_header(out, {a.k, parse_mode(a.mode), a.records});
  const auto start = std::chrono::steady_clock::now();
  std::array<std::optional<Sequence>, 2> in_flight;
  auto start_record = [&](std::uint32_t r) {
    in_flight[r % 2].emplace(device->sequence());
    plotters[r % 2]->record(*in_flight[r % 2], seeds[r]);
    in_flight[r % 2]->submit();
  };
  start_record(0);
  for (std::uint32_t r = 0; r < a.records; ++r) {
    if (r + 1 < a.records) start_record(r + 1);
    in_flight[r % 2]->wait();
    pos::write_plot_record(out, seeds[r], plotters[r % 2]->result());
    if (!out) throw UsageError("writing " + file.temporary_path() + " failed: " + std::strerror(errno));
    const double elapsed = seconds_since(start);
    std::fprintf(stderr, "\rplotted %u / %u records, %.2f records/s", r + 1, a.records, (r + 1) / elapsed);
    std::fflush(stderr);
  }
  std::fprintf(stderr, "\n");
  file.commit();
  std::printf("wrote %u records of K = %d (%s rules) to %s\n", a.records, a.k, pos::mode_name(parse_mode(a.mode)),
              a.output.c_str());
  return 0;
}

int run_verify(const std::string& input, const std::string& device_kind) {
  std::ifstream in(input, std::ios::binary);
  if (!in) throw UsageError("cannot read " + input + ": " + std::strerror(errno));
  pos::PlotFileReader reader(in, input);
  const int k = reader.header().k;
  const pos::Mode mode = reader.header().mode;

  std::unique_ptr<Device> device = open_device(device_kind);
  pos::Verifier verifier(*device, k);
  std::uint64_t proofs = 0, invalid = 0, malformed = 0;
  for (std::uint32_t r = 0; std::optional<pos::PlotFileRecord> record = reader.next(); ++r) {
    if (!record->inconsistency.empty()) {
      ++malformed;
      std::fprintf(stderr, "record %u (seed %s): %s\n", r, hex(record->seed).c_str(), record->inconsistency.c_str());
    }
    // The challenge a proof answers: its s-bucket (Abundance), or the first K bits of y that
    // the s-bucket as a challenge index selects (Subspace).
    std::vector<std::uint32_t> challenges(record->s_buckets);
    if (mode == pos::Mode::Subspace)
      for (auto& c : challenges) c = pos::subspace_challenge(k, c);
    std::vector<std::uint8_t> ok = verifier.verify(record->seed, challenges, record->proofs);
    for (std::size_t i = 0; i < ok.size(); ++i)
      if (!ok[i]) {
        ++invalid;
        if (invalid <= 10)
          std::fprintf(stderr, "record %u (seed %s): proof for s-bucket %u is invalid\n", r, hex(record->seed).c_str(),
                       record->s_buckets[i]);
      }
    proofs += record->s_buckets.size();
  }
  std::printf("%s: K = %d, %s rules, %u records, %llu proofs, %llu valid, %llu invalid, %llu malformed records\n",
              input.c_str(), k, pos::mode_name(mode), reader.header().records, (unsigned long long)proofs,
              (unsigned long long)(proofs - invalid), (unsigned long long)invalid, (unsigned long long)malformed);
  return invalid == 0 && malformed == 0 ? 0 : 1;
}

int run_bench(int k, std::uint32_t records, const std::string& device_kind, pos::Mode mode, std::uint32_t in_flight) {
  check_k_argument(k);
  if (records == 0) throw UsageError("--records must be at least 1");
  std::unique_ptr<Device> device = open_device(device_kind);
  if (in_flight == 0) in_flight = std::uint32_t(pos::default_records_in_flight(device->info()));
  std::vector<std::unique_ptr<pos::Plotter>> plotters;
  for (std::uint32_t i = 0; i < in_flight; ++i) plotters.push_back(make_plotter(*device, k, mode));
  std::vector<pos::Plotter*> group;
  for (auto& p : plotters) group.push_back(p.get());
  // A stand-in erasure-coded record: timing does not depend on its bytes.
  auto chunks = device->alloc<std::uint32_t>(std::size_t(pos::record_chunks) * pos::chunk_words);
  auto seed_of = [](std::uint32_t i) {
    pos::Seed s{};
    for (std::size_t b = 0; b < s.size(); ++b) s[b] = std::uint8_t(b * 7 + i * 131 + 1);
    return s;
  };
  // `in_flight` records at a time, their launches interleaved (pos::record_interleaved).
  std::uint32_t next = 0;
  auto record_round = [&](Sequence& sequence) {
    std::vector<pos::Seed> seeds;
    for (std::uint32_t i = 0; i < in_flight; ++i) seeds.push_back(seed_of(next++));
    pos::record_interleaved(sequence, group, seeds);
    for (auto* p : group) p->record_encoding(sequence, chunks);
  };
  {  // the first round traces and compiles every kernel
    auto warm = device->sequence();
    record_round(warm);
    warm.run_and_wait();
  }
  auto sequence = device->sequence();
  const std::uint32_t rounds = std::max<std::uint32_t>(1, records / in_flight);
  for (std::uint32_t r = 0; r < rounds; ++r) record_round(sequence);
  const auto start = std::chrono::steady_clock::now();
  sequence.run_and_wait();
  const double seconds = seconds_since(start);
  const std::uint32_t plotted = rounds * in_flight;
  std::printf("%s, K = %d, %s rules, %u records, %u in flight (tables, proofs and encoding): %.3f ms per record, "
              "%.2f records/s, %.1f MiB of device memory per record in flight\n",
              device->info().name.c_str(), k, pos::mode_name(mode), plotted, in_flight, seconds * 1e3 / plotted,
              plotted / seconds, double(plotters[0]->device_bytes()) / (1 << 20));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sprig-plot: proof-of-space plotting on the GPU (Abundance's or Subspace's rules)"};
  app.require_subcommand(1);

  PlotArgs plot;
  auto* plot_cmd = app.add_subcommand("plot", "plot records to a file");
  auto* seed_opt = plot_cmd->add_option("--seed", plot.seed, "the record's plot seed, 64 hex digits");
  auto* sector_opt = plot_cmd->add_option("--sector-id", plot.sector_id, "sector id, 64 hex digits");
  plot_cmd->add_option("--piece-offset", plot.piece_offset, "first piece offset in the sector (default 0)");
  seed_opt->excludes(sector_opt);
  plot_cmd->add_option("--k", plot.k, "K, 15..25 (default 20)");
  plot_cmd->add_option("--records", plot.records, "records to plot (default 1)");
  plot_cmd->add_option("--mode", plot.mode, "abundance (default) or subspace")
      ->check(CLI::IsMember({"abundance", "subspace"}));
  plot_cmd->add_option("--output", plot.output, "output file")->required();
  plot_cmd->add_option("--device", plot.device, "vulkan (default) or sim")->check(CLI::IsMember({"vulkan", "sim"}));

  std::string input, verify_device = "vulkan";
  auto* verify_cmd = app.add_subcommand("verify", "verify every proof of a plot file on the device");
  verify_cmd->add_option("--input", input, "plot file")->required();
  verify_cmd->add_option("--device", verify_device, "vulkan (default) or sim")->check(CLI::IsMember({"vulkan", "sim"}));

  int bench_k = 20;
  std::uint32_t bench_records = 20;
  std::string bench_device = "vulkan", bench_mode = "abundance";
  std::uint32_t bench_in_flight = 0;
  auto* bench_cmd = app.add_subcommand("bench", "records/s and memory per record");
  bench_cmd->add_option("--k", bench_k, "K, 15..25 (default 20)");
  bench_cmd->add_option("--records", bench_records, "records in the timed sequence (default 20)");
  bench_cmd->add_option("--device", bench_device, "vulkan (default) or sim")->check(CLI::IsMember({"vulkan", "sim"}));
  bench_cmd->add_option("--mode", bench_mode, "abundance (default) or subspace")
      ->check(CLI::IsMember({"abundance", "subspace"}));
  bench_cmd->add_option("--in-flight", bench_in_flight,
                        "records in flight, their launches interleaved (default: the device type's best)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (*plot_cmd) {
      if (plot.seed.empty() && plot.sector_id.empty()) throw UsageError("plot needs --seed or --sector-id");
      return run_plot(plot);
    }
    if (*verify_cmd) return run_verify(input, verify_device);
    return run_bench(bench_k, bench_records, bench_device, parse_mode(bench_mode), bench_in_flight);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "sprig-plot: error: %s\n", e.what());
    return 2;
  } catch (const pos::PlotFileError& e) {
    std::fprintf(stderr, "sprig-plot: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sprig-plot: error: %s\n", e.what());
    return 3;
  }
}
