#include "sprig/runtime/bind_args.hpp"

namespace sprig::detail {

void launch_error(const ir::Kernel& k, std::size_t param, const std::string& what, const SourceLoc& loc) {
  throw DeviceError(describe("launch argument " + std::to_string(param) + ": " + what, k.name, loc));
}

}  // namespace sprig::detail
