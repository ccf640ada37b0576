// Whether device_print records anything: the process default and a kernel's own choice.
// Off, device_print traces nothing at all, so the kernel is exactly the kernel without its
// prints: the same IR, semantic hash and SPIR-V (docs/debugging.md).
#pragma once

#include <optional>

namespace sprig {

// Sets the default for kernels traced from now on; overrides SPRIG_DEVICE_PRINT.
void set_device_prints(bool on);
// The default: the last set_device_prints, else off where SPRIG_DEVICE_PRINT=0 is in the
// environment, else on.
bool device_prints_default();

namespace detail {
// Whether a kernel asking `requested` records its prints: its own choice, else the default.
bool resolve_device_prints(std::optional<bool> requested);
}  // namespace detail

}  // namespace sprig
