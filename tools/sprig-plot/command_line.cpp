#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include <charconv>
#include <iostream>
#include <limits>
#include <utility>

#include <sprig/stdlib/pos/plot_file_format.hpp>

namespace sprig_plot {

namespace pos = sprig::pos;

namespace {

// Each record in flight holds a plotter's buffers (and, in plot, a thread).
constexpr std::uint32_t max_in_flight = 256;

// ---- values: each parser reads the option's text once into its type, or throws a
// CLI::ValidationError that names the option and the problem.

[[noreturn]] void bad_value(const std::string& message) { throw CLI::ValidationError(message); }

pos::Seed parse_hex32(const std::string& option, const std::string& text) {
  if (text.size() != 64)
    bad_value(option + " must be 64 hex digits (32 bytes); got " + std::to_string(text.size()) + " characters");
  pos::Seed out{};
  for (std::size_t i = 0; i < 64; ++i) {
    const char c = text[i];
    const int v = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (v < 0) {
      bad_value(option + " must be 64 hex digits; '" + std::string(1, c) + "' at position " + std::to_string(i) +
                " is not one");
    }
    out[i / 2] = std::uint8_t(out[i / 2] | (v << (i % 2 == 0 ? 4 : 0)));
  }
  return out;
}

// A decimal whole number in min..max (no sign, no octal or hex).
std::uint32_t parse_count(const std::string& option, const std::string& text, std::uint32_t min, std::uint32_t max) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    bad_value(option + " must be a whole number; got '" + text + "'");
  if (value < min) bad_value(option + " must be at least " + std::to_string(min) + "; got " + text);
  if (value > max) bad_value(option + " must be at most " + std::to_string(max) + "; got " + text);
  return std::uint32_t(value);
}

// A size in bytes: a whole number with an optional KiB, MiB, GiB or TiB suffix ("512MiB").
std::uint64_t parse_bytes(const std::string& option, const std::string& text) {
  std::uint64_t value = 0;
  const char* end_of_text = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), end_of_text, value);
  const std::string suffix(end, end_of_text);
  static const std::pair<const char*, int> units[] = {{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
  int shift = -1;
  for (const auto& [name, bits] : units) {
    if (suffix == name) shift = bits;
  }
  if (text.empty() || error != std::errc() || shift < 0)
    bad_value(option + " must be a whole number of bytes, optionally with KiB, MiB, GiB or TiB; got '" + text + "'");
  if (value == 0) bad_value(option + " must be more than 0 bytes; got " + text);
  if (value > (std::numeric_limits<std::uint64_t>::max() >> shift)) bad_value(option + " is too large: " + text);
  return value << shift;
}

int parse_k(const std::string& text) {
  // Any number is read first, so that K = 30 gets the plotter's own range message.
  const std::uint32_t k = parse_count("--k", text, 0, std::numeric_limits<std::int32_t>::max());
  try {
    pos::check_k(int(k));
  } catch (const std::invalid_argument& e) {
    bad_value(std::string("--k: ") + e.what());
  }
  return int(k);
}

pos::Mode parse_mode(const std::string& text) {
  if (text == "abundance") return pos::Mode::Abundance;
  if (text == "subspace") return pos::Mode::Subspace;
  bad_value("--mode must be abundance or subspace; got '" + text + "'");
}

DeviceKind parse_device(const std::string& text) {
  if (text == "vulkan") return DeviceKind::Vulkan;
  if (text == "sim") return DeviceKind::Simulator;
  bad_value("--device must be vulkan or sim; got '" + text + "'");
}

// ---- the option table: each option once, added to the commands that take it.

CLI::Option* add(CLI::App& command, const std::string& name, const char* type, const std::string& description,
                 std::function<void(const std::string&)> parse) {
  return command.add_option_function<std::string>(name, std::move(parse), description)->type_name(type);
}

void add_k(CLI::App& command, int& k) {
  add(command, "--k", "K", "K, 15..28 (Subspace's rules: 15..25; default 20)", [&k](const std::string& text) { k = parse_k(text); });
}
void add_records(CLI::App& command, std::uint32_t& records, std::uint32_t max, const char* description) {
  add(command, "--records", "N", description,
      [&records, max](const std::string& text) { records = parse_count("--records", text, 1, max); });
}
void add_mode(CLI::App& command, pos::Mode& mode) {
  add(command, "--mode", "RULES", "abundance (default) or subspace",
      [&mode](const std::string& text) { mode = parse_mode(text); });
}
void add_device(CLI::App& command, DeviceKind& device) {
  add(command, "--device", "DEVICE", "vulkan (default) or sim (the CPU simulator)",
      [&device](const std::string& text) { device = parse_device(text); });
}
void add_devices(CLI::App& command, std::string& devices) {
  add(command, "--devices", "LIST",
      "Vulkan devices to use at once: all, or indices, names or UUIDs separated by commas (default: the best one)",
      [&devices](const std::string& text) {
        if (text.empty()) bad_value("--devices needs a list: all, or indices, names or UUIDs separated by commas");
        devices = text;
      });
}
void add_memory_budget(CLI::App& command, std::uint64_t& budget) {
  add(command, "--memory-budget", "SIZE",
      "device memory sprig may hold on each device, e.g. 6GiB (default: no budget beyond the driver's)",
      [&budget](const std::string& text) { budget = parse_bytes("--memory-budget", text); });
}
void add_in_flight(CLI::App& command, std::optional<std::uint32_t>& in_flight, const char* description) {
  add(command, "--in-flight", "N", description, [&in_flight](const std::string& text) {
    in_flight = parse_count("--in-flight", text, 1, max_in_flight);
  });
}
void add_seed(CLI::App& command, const std::string& name, std::optional<pos::Seed>& seed, const char* description) {
  add(command, name, "HEX64", description,
      [&seed, name](const std::string& text) { seed = parse_hex32(name, text); });
}
void add_path(CLI::App& command, const std::string& name, std::string& path, const char* description) {
  add(command, name, "FILE", description, [&path](const std::string& text) { path = text; })->required();
}

// ---- checks that involve several options of a command.

void check_plot(const PlotOptions& plot, bool piece_offset_given) {
  if (plot.seed && plot.sector_id) throw UsageError("plot takes --seed or --sector-id, not both");
  if (!plot.seed && !plot.sector_id) throw UsageError("plot needs --seed or --sector-id");
  if (plot.seed && plot.records != 1) throw UsageError("--seed plots one record; use --sector-id for several");
  if (plot.seed && piece_offset_given) throw UsageError("--piece-offset goes with --sector-id, not --seed");
  if (std::uint64_t(plot.piece_offset) + plot.records > pos::plot_file_max_records) {
    throw UsageError("--piece-offset + --records must not exceed " + std::to_string(pos::plot_file_max_records) +
                     " (piece offsets are u16)");
  }
}

}  // namespace

std::optional<Command> parse_command_line(int argc, const char* const* argv) {
  CLI::App app{"sprig-plot: proof-of-space plotting on the GPU (Abundance's or Subspace's rules)", "sprig-plot"};
  app.require_subcommand(1);

  PlotOptions plot;
  CLI::App& plot_command = *app.add_subcommand("plot", "plot records to a file");
  // Values are parsed in this order, so a bad K is reported before anything else.
  add_k(plot_command, plot.k);
  add_seed(plot_command, "--seed", plot.seed, "the record's plot seed");
  add_seed(plot_command, "--sector-id", plot.sector_id, "the sector whose records to plot");
  CLI::Option* piece_offset =
      add(plot_command, "--piece-offset", "N", "first piece offset in the sector (default 0)",
          [&plot](const std::string& text) { plot.piece_offset = parse_count("--piece-offset", text, 0, 65535); });
  add_records(plot_command, plot.records, pos::plot_file_max_records, "records to plot (default 1)");
  add_mode(plot_command, plot.mode);
  add_path(plot_command, "--output", plot.output, "the plot file to write");
  add_device(plot_command, plot.device);
  add_devices(plot_command, plot.devices);
  add_memory_budget(plot_command, plot.memory_budget);
  add_in_flight(plot_command, plot.in_flight,
                "records in flight on each device, each recorded by its own thread (default: 8 on a GPU, 2 on a CPU)");
  plot_command.add_flag("--resume", plot.resume,
                        "continue an interrupted run of the same command from the records its FILE.partial keeps");

  VerifyOptions verify;
  CLI::App& verify_command = *app.add_subcommand("verify", "verify every proof of a plot file on the device");
  add_path(verify_command, "--input", verify.input, "the plot file to read");
  add_device(verify_command, verify.device);

  BenchOptions bench;
  CLI::App& bench_command = *app.add_subcommand("bench", "records/s and memory per record");
  add_k(bench_command, bench.k);
  add_records(bench_command, bench.records, std::numeric_limits<std::uint32_t>::max(),
              "records in the timed sequence (default 20)");
  add_mode(bench_command, bench.mode);
  add_device(bench_command, bench.device);
  add_devices(bench_command, bench.devices);
  add_memory_budget(bench_command, bench.memory_budget);
  add_in_flight(bench_command, bench.in_flight,
                "records in flight, their launches interleaved (default: the device type's best)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    app.exit(e);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what() + std::string(" (sprig-plot --help lists the options)"));
  }
  auto check_devices = [](DeviceKind device, const std::string& devices) {
    if (device == DeviceKind::Simulator && !devices.empty())
      throw UsageError("--devices lists Vulkan devices; it does not go with --device sim");
  };
  if (plot_command) {
    check_plot(plot, piece_offset->count() > 0);
    check_devices(plot.device, plot.devices);
    return plot;
  }
  if (verify_command) return verify;
  check_devices(bench.device, bench.devices);
  return bench;
}

}  // namespace sprig_plot
