// The device_print default: set_device_prints wins over the environment, which is read
// once, when the first kernel asks.
#include "sprig/dsl/print_switch.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace sprig {

namespace {

enum class Default : int { FromEnvironment, Off, On };
std::atomic<Default> current{Default::FromEnvironment};

bool environment_switches_off() {
  static const bool off = [] {
    const char* value = std::getenv("SPRIG_DEVICE_PRINT");
    return value && std::strcmp(value, "0") == 0;
  }();
  return off;
}

}  // namespace

void set_device_prints(bool on) { current.store(on ? Default::On : Default::Off); }

bool device_prints_default() {
  Default d = current.load();
  return d == Default::FromEnvironment ? !environment_switches_off() : d == Default::On;
}

namespace detail {

bool resolve_device_prints(std::optional<bool> requested) {
  return requested.has_value() ? *requested : device_prints_default();
}

}  // namespace detail

}  // namespace sprig
