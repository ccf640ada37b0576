#include "sprig/runtime/print_log.hpp"

#include <algorithm>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <utility>

#include "sprig/dsl/print_text.hpp"

namespace sprig {

namespace {

std::string triple(const std::array<std::uint32_t, 3>& v) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
}

std::uint64_t linear(const std::array<std::uint32_t, 3>& v, const std::array<std::uint32_t, 3>& extent) {
  return v[0] + std::uint64_t(extent[0]) * (v[1] + std::uint64_t(extent[1]) * v[2]);
}

void write_line(const PrintOptions& options, const std::string& text) {
  if (options.sink) {
    options.sink(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
  }
}

}  // namespace

bool PrintFilter::admits(const std::array<std::uint32_t, 3>& group, const std::array<std::uint32_t, 3>& local,
                         const std::array<std::uint32_t, 3>& size) const {
  switch (kind) {
    case Kind::All: return true;
    case Kind::Workgroup: return group == id;
    case Kind::Invocation:
      for (int d = 0; d < 3; ++d)
        if (group[d] * size[d] + local[d] != id[d]) return false;  // wraps as the kernel's uint arithmetic does
      return true;
  }
  return false;
}

std::string PrintedLine::text() const {
  return loc.str() + ": " + kernel + " wg" + triple(workgroup) + " local" + triple(local) + ": " + message;
}

LaunchPrints launch_prints(const ir::Kernel& kernel, const std::array<std::uint32_t, 3>& workgroups,
                           std::vector<PrintRecord> records, std::uint64_t dropped, std::uint32_t buffer_bytes,
                           const SourceLoc& launched_at) {
  LaunchPrints prints{kernel.name, launched_at, {}, dropped, buffer_bytes};
  std::stable_sort(records.begin(), records.end(), [&](const PrintRecord& a, const PrintRecord& b) {
    std::uint64_t ga = linear(a.workgroup, workgroups), gb = linear(b.workgroup, workgroups);
    if (ga != gb) return ga < gb;
    return linear(a.local, kernel.workgroup_size) < linear(b.local, kernel.workgroup_size);
  });
  prints.lines.reserve(records.size());
  for (PrintRecord& r : records) {
    if (r.format >= kernel.prints.size() || r.words.size() != ir::print_words(kernel.prints[r.format])) {
      ++prints.dropped;
      continue;
    }
    const ir::PrintFormat& format = kernel.prints[r.format];
    prints.lines.push_back({kernel.name, r.workgroup, r.local, format.loc, ir::print_message(format, r.words)});
  }
  return prints;
}

void PrintLog::set_options(PrintOptions options) {
  if (options.buffer_bytes < 1024 || options.buffer_bytes % 4 != 0)
    throw std::invalid_argument("PrintOptions::buffer_bytes must be at least 1024 and a multiple of 4, not " +
                                std::to_string(options.buffer_bytes));
  std::lock_guard lock(mutex_);
  options_ = std::move(options);
}

PrintOptions PrintLog::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

void PrintLog::deliver(const std::vector<LaunchPrints>& launches) {
  // One sequence's lines at a time, with the options of the moment; the sink runs without
  // the state's lock, so it may ask for the options or the kept lines itself.
  std::lock_guard delivering(delivery_mutex_);
  const PrintOptions options = this->options();
  for (const LaunchPrints& launch : launches) {
    for (const PrintedLine& line : launch.lines) write_line(options, line.text());
    if (launch.dropped > 0) {
      write_line(options, "sprig: kernel '" + launch.kernel + "' (launched at " + launch.launched_at.str() +
                              ") dropped " + std::to_string(launch.dropped) + " device_print line(s): its print " +
                              "buffer of " + std::to_string(launch.buffer_bytes) +
                              " bytes was full (PrintOptions::buffer_bytes)");
    }
  }
  if (!options.sink) std::fflush(stdout);
  if (!options.keep) return;
  std::lock_guard lock(mutex_);
  for (const LaunchPrints& launch : launches) {
    kept_.lines.insert(kept_.lines.end(), launch.lines.begin(), launch.lines.end());
    kept_.dropped += launch.dropped;
  }
}

Printed PrintLog::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(kept_, Printed{});
}

}  // namespace sprig
