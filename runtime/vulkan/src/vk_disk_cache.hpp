// sprig's on-disk cache: the SPIR-V emitted for each kernel and each device's driver
// pipeline cache, kept between processes so that a second run skips emitting and compiling
// its kernels (docs/architecture.md, "Pipeline cache on disk").
//
// Every file starts with a header: a magic word, the format version, the 64-bit key the
// entry was written for, the payload's size and a checksum of it. A file that fails any
// check (truncated, damaged, written for another key or by another format) is reported
// through the warning callback and ignored, never trusted; the next store replaces it.
// Stores go to a temporary file that is then renamed over the entry, so that processes
// sharing the directory read a whole file or none.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sprig::vk {

struct Options;

using WarningSink = std::function<void(const std::string&)>;

class DiskCache {
 public:
  // Where Options (or the environment) put the cache; nullopt when it is off.
  static std::optional<std::filesystem::path> directory(const Options& options);

  DiskCache(std::filesystem::path directory, WarningSink warn);

  // The payload stored under `name` for `key`, or nullopt when there is none or the file
  // fails a check (warned about).
  std::optional<std::vector<std::byte>> load(const std::string& name, std::uint64_t key) const;
  // Writes the entry; a failure (read-only directory, full disk) is warned about once per
  // cache, not thrown: the cache only ever saves time.
  void store(const std::string& name, std::uint64_t key, std::span<const std::byte> payload) const;

  const std::filesystem::path& path() const { return directory_; }

 private:
  void warn_write_failure(const std::string& message) const;

  std::filesystem::path directory_;
  WarningSink warn_;
  // Set once a write failure was reported (shared by copies of this cache).
  std::shared_ptr<std::atomic<bool>> write_failure_reported_ = std::make_shared<std::atomic<bool>>(false);
};

// FNV-1a over bytes, chained through `seed`: keys and checksums of cache entries.
std::uint64_t hash_bytes(std::span<const std::byte> bytes, std::uint64_t seed = 0xcbf29ce484222325ull);
template <class T>
std::uint64_t hash_value(const T& value, std::uint64_t seed) {
  return hash_bytes(std::as_bytes(std::span<const T, 1>(&value, 1)), seed);
}

}  // namespace sprig::vk
