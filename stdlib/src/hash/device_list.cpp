#include "sprig/stdlib/hash/device_list.hpp"

#include <exception>
#include <stdexcept>
#include <string>

namespace sprig::hash::detail {

void check_device_list(const char* what, std::span<Device* const> devices) {
  if (devices.empty()) throw std::invalid_argument(std::string(what) + ": the list of devices is empty");
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i] == nullptr)
      throw std::invalid_argument(std::string(what) + ": device " + std::to_string(i) + " of the list is null");
}

void rethrow_naming_device(const char* what, std::span<Device* const> devices, std::size_t index) {
  std::string message;
  try {
    throw;
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "an exception of unknown type";
  }
  std::throw_with_nested(std::runtime_error(std::string(what) + ": device " + std::to_string(index) + " (" +
                                            devices[index]->info().name + ") failed: " + message));
}

}  // namespace sprig::hash::detail
