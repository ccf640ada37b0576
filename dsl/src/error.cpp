#include "sprig/dsl/error.hpp"

namespace sprig {

std::string describe(const std::string& message, const std::string& kernel, const SourceLoc& loc) {
  std::string out;
  if (!kernel.empty()) out += "kernel '" + kernel + "'";
  if (loc.known()) out += (out.empty() ? "" : " ") + std::string("(") + loc.str() + ")";
  return out.empty() ? message : out + ": " + message;
}

std::string TraceError::format(const std::string& m, const SourceLoc& loc, const std::string& kernel) {
  return describe(m, kernel, loc);
}

}  // namespace sprig
