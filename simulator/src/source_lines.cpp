#include "source_lines.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <vector>

namespace sprig::sim {

namespace {

const std::vector<std::string>& lines_of(const char* file) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<std::string>> cache;
  std::lock_guard lock(mutex);
  auto [it, fresh] = cache.try_emplace(file ? file : "");
  if (fresh && file && *file) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) it->second.push_back(line);
  }
  return it->second;
}

}  // namespace

std::optional<std::string> source_line(const char* file, std::uint32_t line) {
  const std::vector<std::string>& lines = lines_of(file);
  if (line == 0 || line > lines.size()) return std::nullopt;
  const std::string& text = lines[line - 1];
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return std::string();
  const std::size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::optional<std::string> source_text(const char* file, std::uint32_t line) {
  const std::vector<std::string>& lines = lines_of(file);
  if (line == 0 || line > lines.size()) return std::nullopt;
  const std::string& text = lines[line - 1];
  return text.substr(0, text.find_last_not_of(" \t\r") + 1);  // npos + 1 == 0: a blank line
}

std::uint32_t source_line_count(const char* file) { return std::uint32_t(lines_of(file).size()); }

std::string display_path(const char* file) {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  const std::filesystem::path path(file ? file : "");
  if (!ec && path.is_absolute()) {
    const std::filesystem::path rel = path.lexically_relative(cwd);
    if (!rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
  }
  return path.string();
}

}  // namespace sprig::sim
