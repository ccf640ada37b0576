#include "vk_disk_cache.hpp"

#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>

#include "sprig/runtime/vulkan.hpp"

namespace sprig::vk {

namespace {

constexpr std::array<char, 8> kMagic{'S', 'P', 'R', 'I', 'G', 'C', 'C', 'H'};
// Bump when the header or any payload's layout changes: older files are then ignored.
constexpr std::uint32_t kFormat = 1;

struct FileHeader {
  std::array<char, 8> magic = kMagic;
  std::uint32_t format = kFormat;
  std::uint32_t reserved = 0;
  std::uint64_t key = 0;
  std::uint64_t payload_bytes = 0;
  std::uint64_t checksum = 0;
};
static_assert(sizeof(FileHeader) == 40);

bool off(const std::string& setting) { return setting == "off" || setting == "0" || setting == "none"; }

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

}  // namespace

std::uint64_t hash_bytes(std::span<const std::byte> bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (std::byte b : bytes) {
    h ^= std::to_integer<std::uint64_t>(b);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::optional<std::filesystem::path> DiskCache::directory(const Options& options) {
  if (!options.cache_directory.empty()) {
    if (off(options.cache_directory)) return std::nullopt;
    return std::filesystem::path(options.cache_directory);
  }
  std::string from_environment = environment("SPRIG_CACHE_DIR");
  if (!from_environment.empty()) {
    if (off(from_environment)) return std::nullopt;
    return std::filesystem::path(from_environment);
  }
  std::string xdg = environment("XDG_CACHE_HOME");
  if (!xdg.empty()) return std::filesystem::path(xdg) / "sprig";
  std::string home = environment("HOME");
  if (!home.empty()) return std::filesystem::path(home) / ".cache" / "sprig";
  return std::nullopt;
}

DiskCache::DiskCache(std::filesystem::path directory, WarningSink warn)
    : directory_(std::move(directory)), warn_(std::move(warn)) {}

std::optional<std::vector<std::byte>> DiskCache::load(const std::string& name, std::uint64_t key) const {
  std::filesystem::path file = directory_ / name;
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;  // not cached yet
  auto ignore = [&](const std::string& why) -> std::optional<std::vector<std::byte>> {
    warn_("ignoring cache file " + file.string() + ": " + why);
    return std::nullopt;
  };
  std::streamoff file_bytes = in.tellg();
  if (file_bytes < static_cast<std::streamoff>(sizeof(FileHeader))) return ignore("truncated (no complete header)");
  in.seekg(0);
  FileHeader header;
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  if (!in) return ignore("unreadable");
  if (header.magic != kMagic) return ignore("not a sprig cache file");
  if (header.format != kFormat) return ignore("written by another sprig cache format (" + std::to_string(header.format) + ")");
  if (header.key != key) return ignore("written for another kernel, device or sprig build");
  if (header.payload_bytes != static_cast<std::uint64_t>(file_bytes) - sizeof(FileHeader)) {
    return ignore("its size does not match its header (truncated or damaged)");
  }
  std::vector<std::byte> payload(header.payload_bytes);
  in.read(reinterpret_cast<char*>(payload.data()), static_cast<std::streamsize>(payload.size()));
  if (!in) return ignore("unreadable");
  if (hash_bytes(payload) != header.checksum) return ignore("its checksum does not match (damaged)");
  return payload;
}

void DiskCache::store(const std::string& name, std::uint64_t key, std::span<const std::byte> payload) const {
  std::filesystem::path file = directory_ / name;
  // Unique per process and call, so that writers never share a temporary file.
  static std::atomic<std::uint64_t> serial{0};
  std::filesystem::path temporary =
      file.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial.fetch_add(1));
  std::error_code error;
  std::filesystem::create_directories(file.parent_path(), error);
  FileHeader header;
  header.key = key;
  header.payload_bytes = payload.size();
  header.checksum = hash_bytes(payload);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&header), sizeof header);
    out.write(reinterpret_cast<const char*>(payload.data()), static_cast<std::streamsize>(payload.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temporary, error);
      warn_write_failure("could not write cache file " + file.string());
      return;
    }
  }
  std::filesystem::rename(temporary, file, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    warn_write_failure("could not write cache file " + file.string() + ": " + error.message());
  }
}

void DiskCache::warn_write_failure(const std::string& message) const {
  if (write_failure_reported_->exchange(true)) return;
  warn_(message + " (the cache only saves time; continuing without it, and not reporting further write failures)");
}

}  // namespace sprig::vk
