// For the tests of hashing over several devices: what a call that fails on one device
// reports.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

#include <sprig/runtime/device.hpp>

// The message of the std::runtime_error `call` throws, if it keeps a sprig::DeviceError as its
// nested exception (the failing device's own error); otherwise says what it threw instead.
inline std::string nested_device_error(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::runtime_error& e) {
    try {
      std::rethrow_if_nested(e);
    } catch (const sprig::DeviceError&) {
      return e.what();
    } catch (...) {
      return "a nested exception that is not a DeviceError";
    }
    return "no nested exception";
  }
  return "no error";
}
