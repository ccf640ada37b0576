// The exceptions sprig throws. Every message names what failed and, where one exists,
// the kernel and the user's source line.
#pragma once

#include <stdexcept>
#include <string>

#include "sprig/dsl/source_loc.hpp"

namespace sprig {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// A mistake found while tracing a kernel (wrong use of the DSL).
class TraceError : public Error {
 public:
  TraceError(const std::string& message, const SourceLoc& loc, const std::string& kernel = "")
      : Error(format(message, loc, kernel)), loc_(loc) {}
  const SourceLoc& where() const { return loc_; }

 private:
  static std::string format(const std::string& m, const SourceLoc& loc, const std::string& kernel);
  SourceLoc loc_;
};

// A failure of a device, a launch, a buffer operation or the compiler.
class DeviceError : public Error {
 public:
  using Error::Error;
};

// "kernel 'name' (file.cpp:12): message", omitting the parts that are unknown.
std::string describe(const std::string& message, const std::string& kernel, const SourceLoc& loc);

}  // namespace sprig
