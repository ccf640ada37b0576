// Source-level debug info on a device: kernels with it run on lavapipe under the validation
// layer and give the results they give without it; a device without non-semantic info
// leaves it out and says so; the pipeline caches never hand a module without debug info to
// a device that asked for it, and the kernel's semantic hash stays what it was.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "backends.hpp"
#include "sprig/sprig.hpp"

using namespace sprig;

namespace {

vk::Options debug_options(bool on = true) {
  vk::Options options;
  options.source_debug_info = on;
  options.source_debug_info_from_environment = false;  // whatever SPRIG_DEBUG_INFO says
  return options;
}

// A kernel with a callable, loops, branches, named and unnamed variables, a struct buffer,
// shared memory and precise floats (whose division and square root are helper functions).
struct Sample {
  float value;
  std::uint32_t weight;
};
SPRIG_STRUCT(Sample, value, weight)

const auto& busy_kernel() {
  static const auto scale = callable("scale", [](Float x, UInt w) -> Float { return x * cast<float>(w); });
  static const auto k = kernel(
      "busy",
      [&](UInt n, ReadBuffer<Sample> samples, WriteBuffer<float> out) {
        UInt i = global_id().x();
        auto tile = shared_array<float>(64, "tile");
        if_(i < n, [&] {
          Var<float> sum = 0.0f;
          sum.named("sum");
          Float first = scale(samples[i][&Sample::value], samples[i][&Sample::weight]).named("first");
          for_(0u, i % 5u, [&](UInt j) { sum += first / (cast<float>(j) + 2.0f); });
          tile[local_index()] = sqrt(sum + 1.0f);
          out[i] = tile[local_index()];
        });
      },
      workgroup(64).precise().names("n", "samples", "out"));
  return k;
}

std::vector<float> run_busy(sprig::Device& dev) {
  std::vector<Sample> samples(200);
  for (std::uint32_t i = 0; i < samples.size(); ++i) samples[i] = {0.25f * float(i), i % 7};
  auto in = dev.upload(samples);
  auto out = dev.upload(std::vector<float>(samples.size()));
  dev.run(busy_kernel(), grid(samples.size()), std::uint32_t(samples.size()), in, out);
  return dev.download(out);
}

}  // namespace

TEST_CASE("kernels with source-level debug info run under validation and give the same results", "[vulkan]") {
  if (!test::backend_enabled(test::Backend::Vulkan)) return;
  vk::Device with = vk::Device::best(debug_options());
  REQUIRE(with.source_debug_info());  // lavapipe has VK_KHR_shader_non_semantic_info (core in 1.3)
  vk::Device without = vk::Device::best(debug_options(false));
  CHECK_FALSE(without.source_debug_info());
  std::vector<float> expected = run_busy(test::simulator());
  CHECK(run_busy(with) == expected);
  CHECK(run_busy(without) == expected);
  CHECK(with.take_validation_messages().empty());
}

TEST_CASE("SPRIG_DEBUG_INFO=1 turns source-level debug info on", "[vulkan]") {
  if (!test::backend_enabled(test::Backend::Vulkan)) return;
  ::setenv("SPRIG_DEBUG_INFO", "1", 1);
  vk::Device from_environment = vk::Device::best();
  vk::Options ignoring;
  ignoring.source_debug_info_from_environment = false;
  vk::Device ignored = vk::Device::best(ignoring);
  ::unsetenv("SPRIG_DEBUG_INFO");
  CHECK(from_environment.source_debug_info());
  CHECK_FALSE(ignored.source_debug_info());
}

TEST_CASE("a device without non-semantic info leaves debug info out and says so", "[vulkan]") {
  if (!test::backend_enabled(test::Backend::Vulkan)) return;
  vk::Options options = debug_options();
  options.hidden_extensions = {"VK_KHR_shader_non_semantic_info"};
  std::vector<std::string> warnings;
  options.on_warning = [&](const std::string& message) { warnings.push_back(message); };
  vk::Device without = vk::Device::best(options);
  CHECK_FALSE(without.source_debug_info());
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("VK_KHR_shader_non_semantic_info") && Catch::Contains("left out"));
  CHECK(run_busy(without) == run_busy(test::simulator()));
}

TEST_CASE("the pipeline caches keep modules with and without debug info apart", "[vulkan]") {
  if (!test::backend_enabled(test::Backend::Vulkan)) return;
  std::filesystem::path directory = std::filesystem::temp_directory_path() / "sprig_debuginfo_cache_test";
  std::filesystem::remove_all(directory);
  auto with_cache = [&](bool debug_info) {
    vk::Options options = debug_options(debug_info);
    options.cache_directory = directory.string();
    return options;
  };
  std::uint64_t hash = busy_kernel().ir()->hash;
  {
    vk::Device plain = vk::Device::best(with_cache(false));
    run_busy(plain);
    REQUIRE(plain.kernel_times("busy"));
    CHECK_FALSE(plain.kernel_times("busy")->spirv_from_disk);
  }
  {
    // The module on disk has no debug info: a device that wants it emits its own.
    vk::Device debugging = vk::Device::best(with_cache(true));
    run_busy(debugging);
    std::optional<vk::KernelTimes> times = debugging.kernel_times("busy");
    REQUIRE(times);
    CHECK_FALSE(times->spirv_from_disk);
    CHECK(times->hash == hash);
  }
  {
    vk::Device plain_again = vk::Device::best(with_cache(false));
    run_busy(plain_again);
    CHECK(plain_again.kernel_times("busy")->spirv_from_disk);
  }
  std::filesystem::remove_all(directory);

  // In memory: kernels that differ only in their lines share a pipeline, unless the device
  // shows lines.
  auto body = [](WriteBuffer<std::uint32_t> out) { out[0] = 7u; };
  auto first = kernel("twin", body);
  auto second = kernel("twin", [](WriteBuffer<std::uint32_t> out) {
    out[0] = 7u;
  });
  REQUIRE(first.ir()->hash == second.ir()->hash);
  REQUIRE(first.ir()->debug_hash != second.ir()->debug_hash);
  for (bool debug_info : {false, true}) {
    vk::Device device = vk::Device::best(debug_options(debug_info));
    auto out = device.upload(std::vector<std::uint32_t>(1));
    device.run(first, grid(1), out);
    device.run(second, grid(1), out);
    CHECK(device.kernel_times().size() == (debug_info ? 2u : 1u));
  }
}
