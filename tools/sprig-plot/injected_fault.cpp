#include "injected_fault.hpp"

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace sprig_plot {

void fail_if_injected() {
  static const char* const setting = std::getenv("SPRIG_PLOT_FAIL_AFTER");
  if (!setting) return;
  static std::atomic<unsigned long long> started{0};
  const unsigned long long limit = std::strtoull(setting, nullptr, 10);
  if (started++ >= limit)
    throw std::runtime_error("a fault injected after " + std::to_string(limit) + " records (SPRIG_PLOT_FAIL_AFTER)");
}

}  // namespace sprig_plot
