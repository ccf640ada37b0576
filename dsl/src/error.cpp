#include "sprig/dsl/error.hpp"

namespace sprig {

std::string describe(const std::string& message, const std::string& kernel, const SourceLoc& loc) {
  std::string out;
  if (!kernel.empty()) {
    out += "kernel '";
    out += kernel;
    out += "'";
  }
  if (loc.known()) {
    if (!out.empty()) out += ' ';
    out += '(';
    out += loc.str();
    out += ')';
  }
  if (out.empty()) return message;
  out += ": ";
  out += message;
  return out;
}

std::string TraceError::format(const std::string& m, const SourceLoc& loc, const std::string& kernel) {
  return describe(m, kernel, loc);
}

}  // namespace sprig
