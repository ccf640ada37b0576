// Shared pieces of the BLAKE3 tests: the official vectors, their input pattern, and the
// b3sum tool as an oracle.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "hash_test_support.hpp"

namespace hash_test {

// test_vectors/test_vectors.json of github.com/BLAKE3-team/BLAKE3 (commit 77b257ee), copied
// unchanged into tests/hash/blake3_test_vectors.json.
inline nlohmann::json official_vectors() {
  std::ifstream in(SPRIG_BLAKE3_VECTORS);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// The vectors' input: byte i is i % 251.
inline Bytes pattern(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = std::uint8_t(i % 251);
  return b;
}

inline std::array<std::uint32_t, 8> key_words(const Bytes& key) {
  auto words = sprig::hash::pack_bytes(key);
  std::array<std::uint32_t, 8> out{};
  std::copy(words.begin(), words.end(), out.begin());
  return out;
}

enum class Mode { Hash, Keyed, DeriveKey };

// Whether the b3sum tool was found at configure time; a warning names the package when not.
inline bool have_b3sum() {
  if (!std::string(SPRIG_B3SUM).empty()) return true;
  WARN("b3sum not found: install the b3sum package");
  return false;
}

// b3sum over temporary files, one process for the whole batch; "" when b3sum is missing.
inline std::vector<std::string> b3sum(const std::vector<Bytes>& messages, std::uint32_t out_bytes, Mode mode,
                               const Bytes& key = {}, const std::string& context = {}) {
  std::string tool = SPRIG_B3SUM;
  if (tool.empty()) return {};
  auto dir = std::filesystem::temp_directory_path() / ("sprig_b3sum_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string command = tool + " --no-names --length " + std::to_string(out_bytes);
  if (mode == Mode::Keyed) {
    std::ofstream(dir / "key", std::ios::binary)
        .write(reinterpret_cast<const char*>(key.data()), std::streamsize(key.size()));
    command += " --keyed";
  }
  if (mode == Mode::DeriveKey) command += " --derive-key '" + context + "'";
  for (std::size_t i = 0; i < messages.size(); ++i) {
    auto path = dir / std::to_string(i);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(messages[i].data()), std::streamsize(messages[i].size()));
    command += " " + path.string();
  }
  if (mode == Mode::Keyed) command += " < " + (dir / "key").string();
  std::vector<std::string> lines;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) {
    std::string line(buffer);
    while (!line.empty() && (line.back() == '\n' || line.back() == ' ')) line.pop_back();
    lines.push_back(line);
  }
  REQUIRE(pclose(pipe) == 0);
  std::filesystem::remove_all(dir);
  REQUIRE(lines.size() == messages.size());
  return lines;
}

}  // namespace hash_test
