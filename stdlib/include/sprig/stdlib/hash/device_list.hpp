// What the hashing calls over several devices (mining_devices.hpp, batch_devices.hpp) share
// about their list of devices: its checks, and errors that name the device that failed.
#pragma once

#include <cstddef>
#include <span>

#include "sprig/runtime/device.hpp"

namespace sprig::hash::detail {

// Throws std::invalid_argument "<what>: ..." for an empty list or a null entry.
void check_device_list(const char* what, std::span<Device* const> devices);

// Called inside a catch block: throws std::runtime_error "<what>: device <index> (<info().name>)
// failed: <message>", with the exception being handled nested in it.
[[noreturn]] void rethrow_naming_device(const char* what, std::span<Device* const> devices, std::size_t index);

}  // namespace sprig::hash::detail
