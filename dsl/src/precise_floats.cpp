// The precise-float default: set_precise_floats wins over the environment, which is read
// once, when the first kernel asks.
#include "sprig/dsl/precise_floats.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace sprig {

namespace {

enum class Default : int { FromEnvironment, Off, On };
std::atomic<Default> current{Default::FromEnvironment};

bool environment_asks() {
  static const bool on = [] {
    const char* value = std::getenv("SPRIG_PRECISE_FLOATS");
    return value && std::strcmp(value, "1") == 0;
  }();
  return on;
}

}  // namespace

void set_precise_floats(bool on) { current.store(on ? Default::On : Default::Off); }

bool precise_floats_default() {
  Default d = current.load();
  return d == Default::FromEnvironment ? environment_asks() : d == Default::On;
}

namespace detail {

bool resolve_precise_floats(std::optional<bool> requested) {
  return requested.has_value() ? *requested : precise_floats_default();
}

}  // namespace detail

}  // namespace sprig
