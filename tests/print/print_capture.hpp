// The device_print tests' view of a device's prints: for the life of a PrintCapture the
// device keeps its lines (PrintOptions::keep) and sends their text to the capture instead
// of standard output; the device's former options come back at the end.
#pragma once

#include <string>
#include <vector>

#include "sprig/sprig.hpp"

namespace sprig::test {

class PrintCapture {
 public:
  explicit PrintCapture(sprig::Device& device, PrintFilter filter = {}, std::uint32_t buffer_bytes = 1u << 20)
      : device_(device), saved_(device.print_options()) {
    PrintOptions options;
    options.filter = filter;
    options.buffer_bytes = buffer_bytes;
    options.keep = true;
    options.sink = [this](const std::string& text) { texts_.push_back(text); };
    device.set_print_options(options);
    (void)device.take_printed();
  }
  ~PrintCapture() { device_.set_print_options(saved_); }
  PrintCapture(const PrintCapture&) = delete;
  PrintCapture& operator=(const PrintCapture&) = delete;

  // The lines kept since the last take, and the prints dropped meanwhile.
  Printed take() { return device_.take_printed(); }
  // Every text the sink received, lines and notices.
  const std::vector<std::string>& texts() const { return texts_; }

 private:
  sprig::Device& device_;
  PrintOptions saved_;
  std::vector<std::string> texts_;
};

// "wg(1,0,0) local(2,0,0): message": a line without its kernel and source line.
inline std::string invocation_and_message(const PrintedLine& line) {
  auto triple = [](const std::array<std::uint32_t, 3>& v) {
    return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
  };
  return "wg" + triple(line.workgroup) + " local" + triple(line.local) + ": " + line.message;
}

inline std::vector<std::string> invocations_and_messages(const std::vector<PrintedLine>& lines) {
  std::vector<std::string> out;
  for (const PrintedLine& line : lines) out.push_back(invocation_and_message(line));
  return out;
}

}  // namespace sprig::test
