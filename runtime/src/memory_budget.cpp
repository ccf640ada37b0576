#include "sprig/runtime/memory_budget.hpp"

#include <cstdio>

namespace sprig {

std::string byte_size_text(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) value /= 1024, ++unit;
  if (unit == 0) return std::to_string(bytes) + " bytes";
  char text[64];
  std::snprintf(text, sizeof text, "%.2f %s (%llu bytes)", value, units[unit], static_cast<unsigned long long>(bytes));
  return text;
}

void MemoryLedger::charge(std::uint64_t bytes, const std::string& what) {
  std::uint64_t held = in_use_.load(std::memory_order_relaxed);
  for (;;) {
    std::uint64_t limit = budget();
    if (limit != 0 && (bytes > limit || held > limit - bytes)) {
      throw MemoryBudgetExceeded(what + ": " + byte_size_text(bytes) + " asked for, but the device's memory budget is " +
                                     byte_size_text(limit) + " and sprig already holds " + byte_size_text(held) +
                                     " (Device::set_memory_budget)",
                                 bytes, limit > held ? limit - held : 0);
    }
    if (in_use_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed)) break;
  }
  std::uint64_t now = held + bytes, high = peak_.load(std::memory_order_relaxed);
  while (now > high && !peak_.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
  }
}

}  // namespace sprig
