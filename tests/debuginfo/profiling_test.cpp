// Profiling: each kernel's driver statistics where the device exposes them and a clear
// "unavailable" where it does not (or they were not asked for, or on the simulator), and a
// sequence's profile as a Chrome trace: valid JSON, one event per command with the kernel's
// name and launching line, times that never go backwards.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "backends.hpp"
#include "sprig/sprig.hpp"

using namespace sprig;

namespace {

const auto& add_kernel() {
  static const auto k = kernel("add_index", [](UInt n, Buffer<std::uint32_t> data) {
    UInt i = global_id().x();
    if_(i < n, [&] { data[i] += i; });
  });
  return k;
}

const auto& double_kernel() {
  static const auto k = kernel("double_all", [](UInt n, Buffer<std::uint32_t> data) {
    UInt i = global_id().x();
    if_(i < n, [&] { data[i] *= 2u; });
  });
  return k;
}

vk::Options statistics_options() {
  vk::Options options;
  options.pipeline_statistics = true;
  return options;
}

// Launches one kernel and returns its statistics as the timing report gives them.
std::shared_ptr<const KernelStatistics> statistics_of_a_launch(sprig::Device& device) {
  auto data = device.upload(std::vector<std::uint32_t>(100));
  auto s = device.sequence();
  s.run(add_kernel(), grid(100), 100u, data);
  s.run_and_wait();
  std::vector<LaunchTiming> timings = s.timings();
  REQUIRE(timings.size() == 1);
  REQUIRE(timings[0].statistics);
  SequenceProfile profile = s.profile();
  REQUIRE(profile.commands.size() == 1);
  CHECK(profile.commands[0].statistics == timings[0].statistics);
  return timings[0].statistics;
}

}  // namespace

TEST_CASE("driver statistics where the device exposes VK_KHR_pipeline_executable_properties", "[vulkan]") {
  if (!test::backend_enabled(test::Backend::Vulkan)) return;
  vk::Device device = vk::Device::best(statistics_options());
  std::shared_ptr<const KernelStatistics> statistics = statistics_of_a_launch(device);
  INFO(statistics->text());
  CHECK(statistics->text() != "");  // with -s, Catch prints what the driver reported
  // Mesa 22.3's lavapipe does not expose the extension.
  bool lavapipe_22 =
      device.info().driver == DriverId::MesaLlvmpipe && device.info().driver_version.starts_with("Mesa 22.");
  if (lavapipe_22) CHECK_FALSE(device.pipeline_statistics());
  if (device.pipeline_statistics()) {
    REQUIRE(statistics->available());
    REQUIRE_FALSE(statistics->executables.empty());
    CHECK_FALSE(statistics->executables[0].statistics.empty());
    CHECK_FALSE(statistics->executables[0].name.empty());
    CHECK(statistics->text().find(statistics->executables[0].statistics[0].name) != std::string::npos);
    CHECK(device.kernel_times("add_index")->statistics == statistics);
  } else {
    CHECK_THAT(statistics->unavailable, Catch::Contains("VK_KHR_pipeline_executable_properties"));
  }
}

TEST_CASE("statistics say why they are unavailable", "[vulkan]") {
  SECTION("a device without the extension") {
    if (!test::backend_enabled(test::Backend::Vulkan)) return;
    vk::Options options = statistics_options();
    options.hidden_extensions = {"VK_KHR_pipeline_executable_properties"};
    vk::Device device = vk::Device::best(options);
    CHECK_FALSE(device.pipeline_statistics());
    std::shared_ptr<const KernelStatistics> statistics = statistics_of_a_launch(device);
    CHECK_FALSE(statistics->available());
    CHECK(statistics->executables.empty());
    CHECK_THAT(statistics->unavailable, Catch::Contains("does not expose VK_KHR_pipeline_executable_properties"));
    CHECK_THAT(statistics->text(), Catch::StartsWith("unavailable: "));
    CHECK(statistics->find("registers") == nullptr);
  }
  SECTION("statistics not asked for") {
    if (!test::backend_enabled(test::Backend::Vulkan)) return;
    vk::Options options;
    options.pipeline_statistics_from_environment = false;
    vk::Device device = vk::Device::best(options);
    CHECK_THAT(statistics_of_a_launch(device)->unavailable, Catch::Contains("not requested") &&
                                                                 Catch::Contains("SPRIG_PROFILE=1"));
  }
  SECTION("SPRIG_PROFILE=1 asks for them") {
    if (!test::backend_enabled(test::Backend::Vulkan)) return;
    ::setenv("SPRIG_PROFILE", "1", 1);
    vk::Device device = vk::Device::best();
    ::unsetenv("SPRIG_PROFILE");
    CHECK(statistics_of_a_launch(device)->unavailable.find("not requested") == std::string::npos);
  }
  SECTION("the simulator") {
    if (!test::backend_enabled(test::Backend::Simulator)) return;
    CHECK_THAT(statistics_of_a_launch(test::simulator())->unavailable, Catch::Contains("simulator"));
  }
}

TEST_CASE("a sequence's profile is a Chrome trace with one event per command") {
  sprig::Device& device = test::device(SPRIG_BACKEND);
  auto data = device.upload(std::vector<std::uint32_t>(256));
  auto copy = device.alloc<std::uint32_t>(256);
  auto s = device.sequence();
  s.fill(data, 1);
  const std::uint32_t first_launch = __LINE__ + 1;
  s.run(add_kernel(), grid(256), 256u, data);
  s.copy(data, copy);
  const std::uint32_t second_launch = __LINE__ + 1;
  s.run(double_kernel(), grid(256), 256u, copy);
  const std::uint32_t third_launch = __LINE__ + 1;
  s.run(add_kernel(), grid(256), 256u, copy);
  s.run_and_wait();
  CHECK(device.download(copy)[3] == (1 + 3) * 2 + 3);

  SequenceProfile profile = s.profile();
  REQUIRE(profile.commands.size() == 5);
  CHECK(profile.backend == device.info().backend);
  CHECK_FALSE(profile.clock.empty());
  INFO(profile.text());
  CHECK(profile.text().find("add_index") != std::string::npos);

  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("sprig_trace_" + profile.backend + "_" + std::to_string(::getpid()) + ".json");
  s.write_trace(path.string());
  nlohmann::json trace;
  {
    std::ifstream in(path);
    REQUIRE(in);
    REQUIRE_NOTHROW(trace = nlohmann::json::parse(in));
  }
  std::filesystem::remove(path);
  REQUIRE(trace.contains("traceEvents"));
  REQUIRE(trace["traceEvents"].is_array());

  std::vector<nlohmann::json> commands, kernels;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("pid"));
    if (e["ph"] != "X") continue;
    commands.push_back(e);
    if (e["cat"] == "kernel") kernels.push_back(e);
  }
  REQUIRE(commands.size() == 5);
  REQUIRE(kernels.size() == 3);  // one event per launch
  CHECK(commands[0]["name"] == "fill");
  CHECK(commands[2]["name"] == "copy");
  CHECK(commands[2]["args"]["bytes"] == 256 * 4);
  CHECK(kernels[0]["name"] == "add_index");
  CHECK(kernels[1]["name"] == "double_all");
  CHECK(kernels[2]["name"] == "add_index");
  const std::uint32_t lines[] = {first_launch, second_launch, third_launch};
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    CHECK(kernels[i]["args"]["line"] == lines[i]);
    CHECK(kernels[i]["args"]["file"] == __FILE__);
    CHECK(kernels[i]["args"]["workgroups"] == nlohmann::json::array({4, 1, 1}));
    CHECK(kernels[i]["args"].contains("statistics"));
  }
  double previous = -1;
  for (const nlohmann::json& e : commands) {
    REQUIRE(e["ts"].is_number());
    REQUIRE(e["dur"].is_number());
    CHECK(e["ts"].get<double>() >= previous);
    CHECK(e["dur"].get<double>() >= 0);
    previous = e["ts"].get<double>();
  }
}

TEST_CASE("profiles are known once the sequence has finished", "[vulkan]") {
  if (!test::backend_enabled(test::Backend::Vulkan)) return;
  auto data = test::vulkan().upload(std::vector<std::uint32_t>(4));
  auto s = test::vulkan().sequence();
  s.run(add_kernel(), grid(4), 4u, data);
  CHECK_THROWS_WITH(s.profile(), Catch::Contains("after wait()"));
  CHECK_THROWS_AS(s.write_trace("/nonexistent/sprig/trace.json"), DeviceError);
  s.run_and_wait();
  CHECK_THROWS_AS(s.write_trace("/nonexistent/sprig/trace.json"), Error);
}

TEST_CASE("statistics a driver reports reach the text and the trace's args") {
  auto statistics = std::make_shared<KernelStatistics>();
  PipelineExecutableStatistics executable;
  executable.name = "Compute Shader";
  executable.subgroup_size = 32;
  executable.statistics = {{"Registers", "registers per invocation", std::uint64_t(24)},
                           {"Spills", "bytes spilled", std::int64_t(0)},
                           {"Occupancy", "share of the maximum", 0.5},
                           {"Uses shared memory", "", true}};
  statistics->executables.push_back(executable);
  CHECK(statistics->available());
  REQUIRE(statistics->find("register") != nullptr);
  CHECK(statistics->find("register")->text() == "24");
  CHECK(statistics->text() == "Registers: 24, Spills: 0, Occupancy: 0.5, Uses shared memory: true");

  SequenceProfile profile{"device", "vulkan", "driver", "timestamp queries", {}};
  CommandProfile launch;
  launch.name = "k";
  launch.loc.file = "kernel.cpp";
  launch.loc.line = 12;
  launch.start_ms = 0.5;
  launch.end_ms = 1.5;
  launch.workgroups = {2, 1, 1};
  launch.statistics = statistics;
  profile.commands.push_back(launch);
  nlohmann::json trace = nlohmann::json::parse(profile.trace_json());
  const nlohmann::json* event = nullptr;
  for (const nlohmann::json& e : trace["traceEvents"])
    if (e["ph"] == "X") event = &e;
  REQUIRE(event != nullptr);
  CHECK((*event)["ts"] == 500.0);
  CHECK((*event)["dur"] == 1000.0);
  CHECK((*event)["args"]["source"] == "kernel.cpp:12");
  const nlohmann::json& values = (*event)["args"]["statistics"]["Compute Shader"];
  CHECK(values["Registers"] == 24);
  CHECK(values["Spills"] == 0);
  CHECK(values["Occupancy"] == 0.5);
  CHECK(values["Uses shared memory"] == true);
  CHECK(values["subgroup size"] == 32);
  CHECK_THAT(profile.text(), Catch::Contains("kernel.cpp:12") && Catch::Contains("Registers: 24"));
}
