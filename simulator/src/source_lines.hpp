// The text of the user's source lines, for reports: files are read once and cached.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sprig::sim {

// Line `line` (1-based) of `file`, without leading and trailing blanks; nothing if the
// file cannot be read or is shorter.
std::optional<std::string> source_line(const char* file, std::uint32_t line);

// The same line as written, indentation kept (for showing a file line by line).
std::optional<std::string> source_text(const char* file, std::uint32_t line);

// How many lines `file` has (0 if it cannot be read).
std::uint32_t source_line_count(const char* file);

// `file` relative to the current directory when it lies below it, else as given.
std::string display_path(const char* file);

}  // namespace sprig::sim
