#include "sprig/runtime/bind_args.hpp"

namespace sprig::detail {

void launch_error(const Launch& l, std::size_t param, const std::string& what) {
  // Launch arguments follow the kernel's parameters one for one.
  const std::vector<ir::Param>& params = l.kernel->params;
  const std::string name = param < params.size() ? params[param].name : std::string();
  const std::string label = name.empty() ? "launch argument " + std::to_string(param)
                                         : "parameter '" + name + "' (launch argument " + std::to_string(param) + ")";
  throw DeviceError(launch_message(l, label + ": " + what));
}

}  // namespace sprig::detail
