#include "injected_fault.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace sprig_plot {

namespace {

struct InjectedFault {
  unsigned long long after = 0;
  std::optional<std::size_t> device;  // every device when empty
};

std::optional<InjectedFault> injected_fault() {
  const char* setting = std::getenv("SPRIG_PLOT_FAIL_AFTER");
  if (!setting) return std::nullopt;
  InjectedFault fault;
  char* end = nullptr;
  fault.after = std::strtoull(setting, &end, 10);
  if (*end == '@') fault.device = std::strtoull(end + 1, nullptr, 10);
  return fault;
}

}  // namespace

void inject_test_faults(std::size_t device) {
  static const char* const delay = std::getenv("SPRIG_PLOT_RECORD_DELAY_MS");
  if (delay) std::this_thread::sleep_for(std::chrono::milliseconds(std::strtoull(delay, nullptr, 10)));
  static const std::optional<InjectedFault> fault = injected_fault();
  if (!fault || (fault->device && *fault->device != device)) return;
  static std::atomic<unsigned long long> started{0};
  if (started++ >= fault->after) {
    throw std::runtime_error("a fault injected after " + std::to_string(fault->after) +
                             " records (SPRIG_PLOT_FAIL_AFTER)");
  }
}

}  // namespace sprig_plot
