#include "sprig/runtime/launch.hpp"

#include <string>

#include "sprig/dsl/error.hpp"

namespace sprig {

std::array<std::uint32_t, 3> workgroups_for(const Grid& g, const std::array<std::uint32_t, 3>& size,
                                            const std::array<std::uint32_t, 3>& max_count) {
  static const char* axis[] = {"x", "y", "z"};
  std::array<std::uint32_t, 3> groups{};
  for (int i = 0; i < 3; ++i) {
    if (size[i] == 0) throw DeviceError(std::string("workgroup size 0 in ") + axis[i]);
    std::uint64_t n = g.invocations[i];
    std::uint64_t count = n / size[i] + (n % size[i] != 0 ? 1 : 0);  // ceil without overflow
    if (count > max_count[i]) {
      throw DeviceError("a grid of " + std::to_string(n) + " invocations in " + axis[i] + " needs " +
                        std::to_string(count) + " workgroups of " + std::to_string(size[i]) +
                        ", more than the device's limit of " + std::to_string(max_count[i]) +
                        " (loop over the grid or use more dimensions)");
    }
    groups[i] = static_cast<std::uint32_t>(count);
  }
  return groups;
}

std::string binding_label(const ir::Param& param) {
  const std::string binding = "binding " + std::to_string(param.binding);
  return param.name.empty() ? "the parameter at " + binding : "parameter '" + param.name + "' (" + binding + ")";
}

std::string launch_message(const Launch& launch, const std::string& message) {
  std::string text = launch.kernel ? describe(message, launch.kernel->name, launch.kernel->loc) : message;
  if (launch.loc.known()) text += " (launched at " + launch.loc.str() + ")";
  return text;
}

}  // namespace sprig
