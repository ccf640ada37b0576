// The pipeline cache on disk: a second device (standing for a second process) gets the
// kernels' SPIR-V and the driver's pipelines back from Options::cache_directory, and a
// damaged, truncated or foreign cache file is ignored with a warning, never trusted.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

#include "sprig/dsl.hpp"
#include "sprig/runtime/vulkan.hpp"
#include "vk_disk_cache.hpp"
#include "vk_env_guard.hpp"
#include "vk_test_support.hpp"

using namespace sprig;
namespace fs = std::filesystem;

namespace {

auto saxpy_kernel() {
  return kernel("cached_saxpy", [](ReadBuffer<float> x, Buffer<float> y, Float a) {
    UInt i = global_id().x();
    if_(i < y.size(), [&] { y[i] = a * x[i] + y[i]; });
  });
}

// A fresh cache directory per test, removed afterwards.
struct TempDirectory {
  fs::path path;
  TempDirectory() {
    static int serial = 0;
    path = fs::temp_directory_path() /
           ("sprig-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(serial++));
    fs::remove_all(path);
  }
  ~TempDirectory() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

struct Warnings {
  std::mutex mutex;
  std::vector<std::string> messages;
  std::string all() {
    std::lock_guard lock(mutex);
    std::string text;
    for (const std::string& m : messages) text += m + "\n";
    return text;
  }
};

vk::Options cache_options(const fs::path& directory, Warnings& warnings) {
  vk::Options options;
  options.cache_directory = directory.string();
  // Modules with source-level debug info skip the SPIR-V cache, even under SPRIG_DEBUG_INFO=1.
  options.source_debug_info_from_environment = false;
  options.on_warning = [&warnings](const std::string& message) {
    std::lock_guard lock(warnings.mutex);
    warnings.messages.push_back(message);
  };
  return options;
}

// Runs saxpy once on a new device and returns the device's record of building it.
vk::KernelTimes run_saxpy(const vk::Options& options) {
  vk::Device device = vk::Device::best(options);
  auto saxpy = saxpy_kernel();
  DeviceBuffer<float> x = device.upload(std::vector<float>{1, 2, 3, 4});
  DeviceBuffer<float> y = device.upload(std::vector<float>{10, 20, 30, 40});
  device.run(saxpy, grid(4), x, y, 2.0f);
  CHECK(device.download(y) == std::vector<float>{12, 24, 36, 48});
  std::optional<vk::KernelTimes> times = device.kernel_times("cached_saxpy");
  REQUIRE(times.has_value());
  return *times;
}

std::vector<fs::path> files_under(const fs::path& directory, const std::string& extension) {
  std::vector<fs::path> files;
  if (!fs::exists(directory)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path());
  }
  return files;
}

std::vector<char> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), {});
}

// The key in a cache file's header (after the 8-byte magic and two 32-bit words).
std::uint64_t key_of(const std::vector<char>& file) {
  std::uint64_t key = 0;
  std::memcpy(&key, file.data() + 16, sizeof key);
  return key;
}

void flip_last_byte(const fs::path& file) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(-1, std::ios::end);
  char c = 0;
  f.get(c);
  f.seekp(-1, std::ios::end);
  f.put(static_cast<char>(c ^ 0x5a));
}

}  // namespace

TEST_CASE("a second device reuses the SPIR-V and driver pipelines a first one saved") {
  TempDirectory cache;
  Warnings warnings;
  vk::Options options = cache_options(cache.path, warnings);

  vk::KernelTimes first = run_saxpy(options);
  CHECK_FALSE(first.spirv_from_disk);
  REQUIRE(files_under(cache.path, ".spv").size() == 1);
  REQUIRE(files_under(cache.path, ".bin").size() == 1);  // the driver's pipeline cache

  vk::KernelTimes second = run_saxpy(options);
  CHECK(second.spirv_from_disk);
  CHECK(warnings.all().empty());
}

TEST_CASE("other compile options are other cache entries") {
  TempDirectory cache;
  Warnings warnings;
  vk::Options options = cache_options(cache.path, warnings);
  run_saxpy(options);
  // A workaround the device does not apply already changes the compile options.
  QuirkSet applied = vk::Device::best(options).info().quirks;
  std::optional<Quirk> extra;
  for (Quirk q : {Quirk::SignedRemainderUnsigned, Quirk::SignExtendedCompareWithConstant, Quirk::IntFloatIntFolded,
                  Quirk::ShiftOfKnownNegativeMiscompared}) {
    if (!applied.has(q) && !extra) extra = q;
  }
  REQUIRE(extra.has_value());
  options.forced_workarounds = options.forced_workarounds | *extra;
  CHECK_FALSE(run_saxpy(options).spirv_from_disk);
  CHECK(files_under(cache.path, ".spv").size() == 2);
  CHECK(run_saxpy(options).spirv_from_disk);
}

TEST_CASE("a damaged SPIR-V cache file is ignored with a warning and replaced") {
  TempDirectory cache;
  Warnings warnings;
  vk::Options options = cache_options(cache.path, warnings);
  run_saxpy(options);
  std::vector<fs::path> modules = files_under(cache.path, ".spv");
  REQUIRE(modules.size() == 1);

  flip_last_byte(modules[0]);
  CHECK_FALSE(run_saxpy(options).spirv_from_disk);
  CHECK_THAT(warnings.all(), Catch::Contains("checksum does not match"));
  CHECK_THAT(warnings.all(), Catch::Contains(modules[0].string()));

  warnings.messages.clear();
  CHECK(run_saxpy(options).spirv_from_disk);  // the damaged file was rewritten
  CHECK(warnings.all().empty());

  fs::resize_file(modules[0], 30);
  CHECK_FALSE(run_saxpy(options).spirv_from_disk);
  CHECK_THAT(warnings.all(), Catch::Contains("truncated"));

  { std::ofstream(modules[0], std::ios::binary | std::ios::trunc) << "this is not a cache file at all, just text"; }
  warnings.messages.clear();
  CHECK_FALSE(run_saxpy(options).spirv_from_disk);
  CHECK_THAT(warnings.all(), Catch::Contains("not a sprig cache file"));
}

TEST_CASE("a well-formed cache file that holds no SPIR-V is not handed to the driver") {
  TempDirectory cache;
  Warnings warnings;
  vk::Options options = cache_options(cache.path, warnings);
  run_saxpy(options);
  fs::path module = files_under(cache.path, ".spv").at(0);
  // Valid framing around bytes that are not a module: only the content check can catch it.
  std::vector<std::byte> junk(64, std::byte{0x42});
  vk::DiskCache(cache.path, [](const std::string&) {})
      .store(fs::relative(module, cache.path).string(), key_of(read_file(module)), junk);

  CHECK_FALSE(run_saxpy(options).spirv_from_disk);
  CHECK_THAT(warnings.all(), Catch::Contains("not a SPIR-V module"));
}

TEST_CASE("a driver pipeline cache written for another device is ignored with a warning") {
  TempDirectory cache;
  Warnings warnings;
  vk::Options options = cache_options(cache.path, warnings);
  run_saxpy(options);
  fs::path pipelines = files_under(cache.path, ".bin").at(0);
  std::vector<char> file = read_file(pipelines);
  // The Vulkan header follows sprig's 40-byte header; byte 16 of it starts pipelineCacheUUID.
  std::vector<std::byte> foreign(file.size() - 40);
  std::memcpy(foreign.data(), file.data() + 40, foreign.size());
  foreign.at(16) ^= std::byte{0xff};
  vk::DiskCache(cache.path, [](const std::string&) {}).store(pipelines.filename().string(), key_of(file), foreign);

  run_saxpy(options);
  CHECK_THAT(warnings.all(), Catch::Contains("not this device's"));
}

TEST_CASE("the disk cache can be turned off, and an unwritable one only warns") {
  TempDirectory cache;
  Warnings warnings;
  {
    test::EnvGuard env("SPRIG_CACHE_DIR", cache.path.string().c_str());
    vk::Options off = cache_options("off", warnings);
    CHECK_FALSE(run_saxpy(off).spirv_from_disk);
    CHECK_FALSE(fs::exists(cache.path));

    vk::Options from_environment = cache_options("", warnings);
    run_saxpy(from_environment);
    CHECK(files_under(cache.path, ".spv").size() == 1);
  }
  {
    test::EnvGuard env("SPRIG_CACHE_DIR", "off");
    CHECK_FALSE(run_saxpy(cache_options("", warnings)).spirv_from_disk);
  }

  fs::create_directories(cache.path);
  fs::path not_a_directory = cache.path / "plain-file";
  std::ofstream(not_a_directory) << "x";
  vk::Options unwritable = cache_options(not_a_directory / "cache", warnings);
  std::size_t before = warnings.messages.size();
  CHECK_FALSE(run_saxpy(unwritable).spirv_from_disk);
  CHECK_THAT(warnings.all(), Catch::Contains("could not write cache file"));
  // Its SPIR-V and its driver pipelines both failed to save: one warning for the device.
  CHECK(warnings.messages.size() == before + 1);
}
