// device_print on the host (docs/debugging.md): which invocations print, where the lines
// go, and the log every backend hands a completed sequence's lines to. Backends find raw
// records (a format, an invocation, argument words); the lines are made from them here, in
// one order and one text for every backend.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "sprig/dsl/ir.hpp"

namespace sprig {

// Whose device_print lines are printed: every invocation, one invocation (by global id) or
// one workgroup. The others print nothing; on Vulkan they skip the print in the kernel.
struct PrintFilter {
  enum class Kind : std::uint8_t { All, Invocation, Workgroup };
  Kind kind = Kind::All;
  std::array<std::uint32_t, 3> id{};  // Invocation: the global id; Workgroup: the workgroup id

  static PrintFilter all() { return {}; }
  static PrintFilter invocation(std::uint32_t x, std::uint32_t y = 0, std::uint32_t z = 0) {
    return {Kind::Invocation, {x, y, z}};
  }
  static PrintFilter workgroup(std::uint32_t x, std::uint32_t y = 0, std::uint32_t z = 0) {
    return {Kind::Workgroup, {x, y, z}};
  }
  // Whether invocation `local` of workgroup `group`, in workgroups of `size`, prints.
  bool admits(const std::array<std::uint32_t, 3>& group, const std::array<std::uint32_t, 3>& local,
              const std::array<std::uint32_t, 3>& size) const;
};

// One line a kernel printed.
struct PrintedLine {
  std::string kernel;
  std::array<std::uint32_t, 3> workgroup{}, local{};
  SourceLoc loc;        // the device_print call
  std::string message;  // the format with the arguments' values in place
  // "file.cpp:12: kernel wg(1,0,0) local(3,0,0): message"
  std::string text() const;
};

struct PrintOptions {
  PrintFilter filter{};
  // Vulkan: the size of the buffer each printing launch writes its records to (a record is
  // 28 bytes plus 4 per 32-bit argument word). Prints that find it full are dropped and
  // counted. At least 1024, a multiple of 4.
  std::uint32_t buffer_bytes = 1u << 20;
  // Where each line goes (its text(), no newline) when its sequence completes, and the
  // notice of dropped lines. Empty: standard output.
  std::function<void(const std::string&)> sink{};
  // Also keep the lines for Device::take_printed().
  bool keep = false;
};

// One execution of a print by one invocation, as a backend found it.
struct PrintRecord {
  std::uint32_t format = 0;  // index in ir::Kernel::prints
  std::array<std::uint32_t, 3> workgroup{}, local{};
  std::vector<std::uint32_t> words;  // the arguments' (sprig/dsl/print_text.hpp)
};

// What one launch printed.
struct LaunchPrints {
  std::string kernel;
  SourceLoc launched_at;
  std::vector<PrintedLine> lines;
  std::uint64_t dropped = 0;      // prints that found the buffer full (Vulkan)
  std::uint32_t buffer_bytes = 0;  // the buffer they found full
};

// The lines of a launch of `kernel` over `workgroups` from its records, in the order every
// backend prints them: by workgroup (x fastest), then by local invocation (x fastest),
// then in the order the invocation printed them, which is the records' order. A record
// that names no format of the kernel or is too short for it is counted in `dropped`.
LaunchPrints launch_prints(const ir::Kernel& kernel, const std::array<std::uint32_t, 3>& workgroups,
                           std::vector<PrintRecord> records, std::uint64_t dropped, std::uint32_t buffer_bytes,
                           const SourceLoc& launched_at);

// The lines kept since the last Device::take_printed(), and the prints dropped meanwhile.
struct Printed {
  std::vector<PrintedLine> lines;
  std::uint64_t dropped = 0;
};

// A device's print options and kept lines; shared by its sequences, any thread.
class PrintLog {
 public:
  void set_options(PrintOptions options);
  PrintOptions options() const;
  // A completed sequence's prints, launch by launch: each line (and a notice of lines
  // dropped) to the sink, and kept where PrintOptions::keep says. Lines of sequences that
  // complete at once are never interleaved.
  void deliver(const std::vector<LaunchPrints>& launches);
  Printed take();

 private:
  std::mutex delivery_mutex_;  // one sequence's lines at a time
  mutable std::mutex mutex_;   // options_ and kept_
  PrintOptions options_;
  Printed kept_;
};

}  // namespace sprig
