// The process-wide default of precise-float mode (docs/language.md, "Precise floats"):
// kernels whose options leave KernelOptions::precise_floats unset take it when traced.
#pragma once

#include <optional>

namespace sprig {

// Sets the default for kernels traced from now on; overrides SPRIG_PRECISE_FLOATS.
void set_precise_floats(bool on);
// The default: the last set_precise_floats, else SPRIG_PRECISE_FLOATS=1 in the
// environment, else off.
bool precise_floats_default();

namespace detail {
// Whether a kernel asking `requested` gets precise floats: its own choice, else the default.
bool resolve_precise_floats(std::optional<bool> requested);
}  // namespace detail

}  // namespace sprig
