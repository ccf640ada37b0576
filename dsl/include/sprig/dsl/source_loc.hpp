// A source location that every IR node carries: where in the user's C++ it was traced.
#pragma once

#include <cstdint>
#include <source_location>
#include <string>

namespace sprig {

struct SourceLoc {
  const char* file = "";
  const char* function = "";
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  SourceLoc() = default;
  SourceLoc(const std::source_location& l)  // NOLINT: implicit by design
      : file(l.file_name()), function(l.function_name()), line(l.line()), column(l.column()) {}

  bool known() const { return line != 0; }
  // "file.cpp:12"
  std::string str() const { return std::string(file) + ":" + std::to_string(line); }
};

}  // namespace sprig
